// The scores page's "Copy" buttons (the page works without them: each signature is also
// printed in its system's collapsed details). A button[data-copy] is shown, and on a
// click puts its data-copy text on the clipboard and says so in its own status note
// ("copy-status-" + the button's id, a polite live region).
(function () {
  "use strict";
  function fallback(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.appendChild(area);
    area.select();
    var done = false;
    try {
      done = document.execCommand("copy");
    } catch (error) {
      done = false;
    }
    document.body.removeChild(area);
    return done;
  }
  function say(button, text) {
    var note = document.getElementById("copy-status-" + button.id);
    if (note) {
      note.textContent = text;
    }
  }
  function copy(button) {
    var text = button.getAttribute("data-copy") || "";
    var copied = button.getAttribute("data-copied") || "Copied.";
    var failed = button.getAttribute("data-failed") || "Not copied: select the text instead.";
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () { say(button, copied); },
        function () { say(button, fallback(text) ? copied : failed); }
      );
    } else {
      say(button, fallback(text) ? copied : failed);
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () { copy(button); });
    });
  });
}());
