// The judging screen's keyboard: the key of a label (G, R, B for good, reasonable, bad;
// W, P, C, F for lexical reference) labels the candidate in focus (or, with the focus
// elsewhere, the first candidate without a label) and moves the focus to the next
// candidate without a label, or to "Save and next" when none is left. Enter saves.
// The form works the same without this script (Tab, the arrow keys and Space).
(function () {
  "use strict";
  var form = document.getElementById("judgements");
  if (!form) {
    return;
  }
  var groups = Array.prototype.slice.call(form.querySelectorAll("fieldset.candidate"));
  function labelled(group) {
    return group.querySelector('input[type="radio"]:checked') !== null;
  }
  function focusGroup(group) {
    var radio = group.querySelector('input[type="radio"]:checked') ||
      group.querySelector('input[type="radio"]');
    if (radio) {
      radio.focus();
    }
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    var key = (event.key || "").toLowerCase();
    if (key.length !== 1) {
      return;
    }
    var active = document.activeElement;
    var group = active && active.closest ? active.closest("fieldset.candidate") : null;
    if (!group) {
      group = groups.filter(function (g) { return !labelled(g); })[0];
    }
    if (!group) {
      return;
    }
    var radio = group.querySelector('input[type="radio"][data-key="' + key + '"]');
    if (!radio) {
      return;
    }
    event.preventDefault();
    radio.checked = true;
    radio.dispatchEvent(new Event("change", { bubbles: true }));
    var index = groups.indexOf(group);
    var rest = groups.slice(index + 1).concat(groups.slice(0, index));
    var next = rest.filter(function (g) { return !labelled(g); })[0];
    if (next) {
      focusGroup(next);
    } else {
      document.getElementById("save").focus();
    }
  });
}());
