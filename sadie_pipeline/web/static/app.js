// sadie web: small helpers (the health charts are health.js's).
(function () {
  "use strict";

  function selectAll(ev) {
    var on = ev.target.checked;
    document.querySelectorAll("input[name=ids]").forEach(function (box) { box.checked = on; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var all = document.getElementById("select-all");
    if (all) { all.addEventListener("change", selectAll); }
    document.querySelectorAll("form[data-confirm]").forEach(function (f) {
      f.addEventListener("submit", function (ev) { if (!window.confirm(f.dataset.confirm)) { ev.preventDefault(); } });
    });
  });
})();
