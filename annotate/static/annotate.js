// The annotation page's script. The form works the same without it.
//
// 1. Keyboard shortcuts: Alt+P (Proper name), Alt+N (No substitute) and Alt+M (Part of a
//    multiword) tick or untick their box, even while typing in a field.
// 2. "Saved." (in the page's language: the form's data-saved) fades away after a few
//    seconds (it stays readable for screen readers until then, in its role="status"
//    paragraph).
// 3. Save and next without a page load: the form is sent with fetch (Accept:
//    application/json, the same fields); the answer's JSON carries the next sentence's
//    content, which replaces #item, and its URL, which becomes the page's
//    (history.pushState). The focus goes where a page load puts it (the first box, or
//    the field of the first message), and the live region #swap-status says "Saved." and
//    the new sentence. Any answer but 200 (a refused answer, an ended session, an expired
//    form, a server error) or a network failure: the form is sent again as a page, which
//    shows what happened. The protocol: README, "Saving without a page load".
(function () {
  "use strict";
  if (!document.getElementById("answer")) {
    return;
  }
  function answerForm() {
    return document.getElementById("answer");
  }
  function savedText() {
    var form = answerForm();
    return (form && form.getAttribute("data-saved")) || "Saved.";
  }
  function fadeLater(element) {
    element.classList.add("saved");
    element.classList.remove("gone");
    window.setTimeout(function () { element.classList.add("gone"); }, 2500);
  }

  document.addEventListener("keydown", function (event) {
    var form = answerForm();
    if (!form || !event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    // event.code names the key whatever character Alt makes it type (Option on a Mac)
    var key = (event.code || "").replace(/^Key/, "").toLowerCase();
    var box = form.querySelector('input[type="checkbox"][data-shortcut="' + key + '"]');
    if (!box || box.disabled) {
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

  document.querySelectorAll("p.flash.info").forEach(function (flash) {
    if (flash.textContent.trim() === savedText()) {
      fadeLater(flash);
    }
  });

  if (!window.fetch || !window.FormData || !window.history || !window.history.pushState) {
    return;
  }
  var busy = false;

  // While a save is under way the form is held: its boxes read-only, its ticks and button
  // disabled, so that nothing is typed into a sentence about to be replaced (and a second
  // press waits for the next sentence).
  function hold(form, held) {
    Array.prototype.forEach.call(form.elements, function (control) {
      if (control.type === "hidden") {
        return;
      }
      if (control.type === "text") {
        control.readOnly = held;
      } else {
        control.disabled = held;
      }
    });
    form.setAttribute("aria-busy", held ? "true" : "false");
  }

  function swap(saved) {
    var holder = document.createElement("div");
    holder.innerHTML = saved.html;
    var fresh = holder.querySelector("#item");
    var old = document.getElementById("item");
    old.parentNode.replaceChild(fresh, old);
    document.title = fresh.getAttribute("data-title") || document.title;
    window.history.pushState({ lexsub: saved.next }, "", saved.url);
    var status = document.getElementById("swap-status");
    if (status) {
      var heading = fresh.querySelector("h1");
      var said = document.createElement("span");
      said.className = "visually-hidden";
      said.textContent = " " + (heading ? heading.textContent : "");
      status.textContent = savedText();
      status.appendChild(said);
      fadeLater(status);
    }
    window.scrollTo(0, 0);
    var first = fresh.querySelector("[autofocus]") || document.getElementById("sub1");
    if (first) {
      first.focus();
    }
    document.dispatchEvent(new CustomEvent("lexsub:swapped"));
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || form.id !== "answer") {
      return;
    }
    event.preventDefault();
    if (busy) {
      return; // the save under way answers for this press too
    }
    busy = true;
    var body = new FormData(form); // before hold(): a disabled tick is not sent
    hold(form, true);
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller ? window.setTimeout(function () { controller.abort(); }, 20000) : 0;
    fetch(form.action, {
      method: "POST",
      body: body,
      headers: { Accept: "application/json" },
      credentials: "same-origin",
      signal: controller ? controller.signal : undefined
    }).then(function (response) {
      if (response.status !== 200) {
        throw new Error("HTTP " + response.status);
      }
      return response.json();
    }).then(function (saved) {
      window.clearTimeout(timer);
      if (saved.html === null || saved.html === undefined) {
        window.location.assign(saved.url);
        return;
      }
      try {
        swap(saved);
      } catch (error) {
        window.location.assign(saved.url); // saved: the next page, loaded as a page
        return;
      }
      busy = false;
    }, function () {
      window.clearTimeout(timer);
      hold(form, false);
      form.submit(); // the page answers: messages, the log-in, an error page
    });
  });

  // Back and forward between swapped sentences: load the page the address names
  window.addEventListener("popstate", function () {
    window.location.reload();
  });
}());
