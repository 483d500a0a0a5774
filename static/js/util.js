// Companion: the helpers every script shares (window.Companion), loaded first on every page.
"use strict";
(function () {
  var root = document.documentElement;
  function $$(sel, within) { return Array.prototype.slice.call((within || document).querySelectorAll(sel)); }
  window.Companion = {
    $: function (sel, within) { return (within || document).querySelector(sel); },
    $$: $$,
    el: function (tag, cls, text) {
      var e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    },
    // JSON the server wrote into an attribute: a game's descriptor, a page's words.
    data: function (node, name) { return JSON.parse(node.getAttribute(name)); },
    // A page's words with their places filled in: fill("{n} of 5 picked", {n: 3}).
    fill: function (text, values) {
      Object.keys(values).forEach(function (key) { text = text.replace("{" + key + "}", values[key]); });
      return text;
    },
    // Tell the page a script changed a field, as typing would.
    fire: function (input) { input.dispatchEvent(new Event("input", { bubbles: true })); },
    // A time in the page's language, with the parts asked for ({hour: "2-digit", …}).
    clock: function (date, parts) { return date.toLocaleString(root.lang || undefined, parts); }
  };
})();
