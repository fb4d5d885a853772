// The annotation page's keyboard shortcuts: Alt+P (Proper name), Alt+N (No substitute)
// and Alt+M (Part of a multiword) tick or untick their box, even while typing in a field.
// The form works the same without this script.
(function () {
  "use strict";
  var form = document.getElementById("answer");
  if (!form) {
    return;
  }
  document.addEventListener("keydown", function (event) {
    if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    // event.code names the key whatever character Alt makes it type (Option on a Mac)
    var key = (event.code || "").replace(/^Key/, "").toLowerCase();
    var box = form.querySelector('input[type="checkbox"][data-shortcut="' + key + '"]');
    if (!box) {
      return;
    }
    event.preventDefault();
    box.checked = !box.checked;
    box.dispatchEvent(new Event("change", { bubbles: true }));
    if (key === "m" && box.checked) {
      var multiword = document.getElementById("multiword");
      if (multiword) {
        multiword.focus();
      }
    }
  });
  // "Saved." (in the page's language: the form's data-saved) fades away after a few seconds (it stays readable for screen readers
  // until then, in its role="status" paragraph).
  var saved = form.getAttribute("data-saved") || "Saved.";
  var flashes = document.querySelectorAll("p.flash.info");
  flashes.forEach(function (flash) {
    if (flash.textContent.trim() === saved) {
      flash.classList.add("saved");
      window.setTimeout(function () { flash.classList.add("gone"); }, 2500);
    }
  });
}());
