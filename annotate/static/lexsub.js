// The script every page loads (the pages work without it).
//
// 1. A box with a length limit (data-limit) says so when it reaches it, instead of
//    cutting silently as maxlength does (a pasted text is kept whole, and the server
//    names the rule if it is still too long when saved). The note is the element
//    "limit-" + the box's id, a polite live region the box's aria-describedby names; its
//    texts come from the page (data-reached, data-over, with {count} and {limit}) in the
//    page's language.
// 2. A table that scrolls sideways inside its container (.table-scroll, so that no page is
//    wider than a phone) can be scrolled by keyboard: the container takes the focus.
(function () {
  "use strict";
  function update(box) {
    var note = document.getElementById("limit-" + box.id);
    var limit = parseInt(box.getAttribute("data-limit"), 10);
    if (!note || !limit) {
      return;
    }
    var count = Array.from(box.value).length;
    var text = "";
    if (count > limit) {
      text = note.getAttribute("data-over");
    } else if (count === limit) {
      text = note.getAttribute("data-reached");
    }
    text = (text || "").replace("{count}", String(count)).replace("{limit}", String(limit));
    if (note.textContent !== text) {
      note.textContent = text;
    }
  }
  function scrollable() {
    document.querySelectorAll(".table-scroll").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth) {
        box.setAttribute("tabindex", "0");
      } else {
        box.removeAttribute("tabindex");
      }
    });
  }
  document.addEventListener("input", function (event) {
    var box = event.target;
    if (box && box.hasAttribute && box.hasAttribute("data-limit")) {
      update(box);
    }
  });
  function refresh() {
    document.querySelectorAll("[data-limit]").forEach(update);
    scrollable();
  }
  document.addEventListener("DOMContentLoaded", refresh);
  // the annotation page's script swapped in the next sentence (static/annotate.js)
  document.addEventListener("lexsub:swapped", refresh);
  window.addEventListener("resize", scrollable);
}());
