// The records viewer's script: turns the records, all shown in order without
// JavaScript, into WAI-ARIA tabs (manual activation: arrow keys, Home and End
// move the focus, Enter or Space chooses), switches the page text between the
// languages of the strings table, and keeps the language and record in the
// URL fragment ("#lang=ko&record=NN-ID", NN-ID being the record file's name
// without ".json"). It reads no record data: that is all in the page already.
(function () {
  "use strict";
  var strings = JSON.parse(document.getElementById("page-strings").textContent);
  var tablist = document.querySelector("[role=tablist]");
  var tabs = Array.prototype.slice.call(tablist.querySelectorAll("[role=tab]"));
  var panels = tabs.map(function (tab) {
    return document.getElementById(tab.getAttribute("aria-controls"));
  });
  var langButtons = Array.prototype.slice.call(document.querySelectorAll("button[data-lang]"));
  var langs = langButtons.map(function (b) { return b.getAttribute("data-lang"); });
  var state = { lang: document.documentElement.lang, record: tabs[0].getAttribute("data-record") };

  function indexOfRecord(stem) {
    for (var i = 0; i < tabs.length; i++) {
      if (tabs[i].getAttribute("data-record") === stem) {
        return i;
      }
    }
    return -1;
  }

  // readFragment returns the state the fragment asks for, keeping the
  // current value of anything it does not name (or names wrongly).
  function readFragment() {
    var next = { lang: state.lang, record: state.record };
    var params = new URLSearchParams(location.hash.replace(/^#/, ""));
    if (langs.indexOf(params.get("lang")) >= 0) {
      next.lang = params.get("lang");
    }
    if (indexOfRecord(params.get("record")) >= 0) {
      next.record = params.get("record");
    }
    return next;
  }

  function writeFragment() {
    var hash = "#lang=" + encodeURIComponent(state.lang) + "&record=" + encodeURIComponent(state.record);
    if (location.hash === hash) {
      return;
    }
    try {
      history.replaceState(null, "", hash);
    } catch (e) {
      location.replace(hash);
    }
  }

  function applyLang() {
    var lang = state.lang;
    document.documentElement.lang = lang;
    var nodes = document.querySelectorAll("[data-i18n]");
    for (var i = 0; i < nodes.length; i++) {
      var text = strings[nodes[i].getAttribute("data-i18n")];
      if (text && text[lang] !== undefined) {
        nodes[i].textContent = text[lang];
      }
    }
    langButtons.forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-lang") === lang));
    });
  }

  function applyRecord() {
    var selected = indexOfRecord(state.record);
    tabs.forEach(function (tab, i) {
      var on = i === selected;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      panels[i].hidden = !on;
    });
  }

  function apply() {
    applyLang();
    applyRecord();
    writeFragment();
  }

  // Without this script the panels are plain sections, all shown; make them
  // tab panels of the tab list, which the page keeps hidden until now.
  panels.forEach(function (panel, i) {
    panel.setAttribute("role", "tabpanel");
    panel.setAttribute("aria-labelledby", tabs[i].id);
    panel.tabIndex = 0;
  });
  tablist.hidden = false;
  document.querySelector(".langs").hidden = false;
  document.documentElement.classList.add("js");

  tabs.forEach(function (tab) {
    tab.addEventListener("click", function () {
      state.record = tab.getAttribute("data-record");
      apply();
    });
  });
  tablist.addEventListener("keydown", function (event) {
    var i = tabs.indexOf(document.activeElement);
    if (i < 0 || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    var next;
    switch (event.key) {
      case "ArrowRight":
        next = (i + 1) % tabs.length;
        break;
      case "ArrowLeft":
        next = (i - 1 + tabs.length) % tabs.length;
        break;
      case "Home":
        next = 0;
        break;
      case "End":
        next = tabs.length - 1;
        break;
      default:
        return; // Enter and Space click the focused tab: it is a button.
    }
    event.preventDefault();
    tabs[next].focus();
  });
  langButtons.forEach(function (b) {
    b.addEventListener("click", function () {
      state.lang = b.getAttribute("data-lang");
      apply();
    });
  });
  window.addEventListener("hashchange", function () {
    state = readFragment();
    apply();
  });

  if (!/(^#|&)lang=/.test(location.hash)) {
    // No language chosen yet: follow the browser's, if the page has it.
    var preferred = (navigator.languages || [navigator.language || ""]).map(function (l) {
      return String(l).toLowerCase().split("-")[0];
    });
    for (var k = 0; k < preferred.length; k++) {
      if (langs.indexOf(preferred[k]) >= 0) {
        state.lang = preferred[k];
        break;
      }
    }
  }
  state = readFragment();
  apply();
})();
