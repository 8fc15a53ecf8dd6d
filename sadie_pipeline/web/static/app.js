// sadie web: charts (uPlot) from the JSON each chart element carries, and small helpers.
(function () {
  "use strict";

  function fmtDay(ts) { return new Date(ts * 1000).toISOString().slice(0, 10); }

  function barsOrLines(el, spec) {
    var width = Math.max(320, el.clientWidth - 16);
    var categorical = spec.kind === "bars";
    var xs = categorical ? spec.labels.map(function (_, i) { return i; }) : spec.x;
    var palette = ["#2456a6", "#b42318", "#1b7a3d", "#9a6700", "#6941c6", "#0e7490", "#c11574", "#475467"];
    var series = [{}];
    spec.series.forEach(function (s, i) {
      var conf = { label: s.label, stroke: palette[i % palette.length], width: 2, points: { size: 7 } };
      if (categorical) {
        conf.fill = palette[i % palette.length] + "cc";
        conf.paths = uPlot.paths.bars({ size: [0.6, 60] });
        conf.points = { show: false };
      }
      series.push(conf);
    });
    var axes = [{
      values: categorical
        ? function (u, splits) { return splits.map(function (v) { return spec.labels[v] === undefined ? "" : spec.labels[v]; }); }
        : function (u, splits) { return splits.map(fmtDay); },
      space: categorical ? 30 : 90
    }, {}];
    var opts = {
      width: width, height: 220, series: series, axes: axes, legend: { show: spec.series.length > 1 },
      scales: { x: categorical ? { time: false, range: [-0.5, Math.max(0.5, xs.length - 0.5)] }
                               : { time: true, range: [xs[0] - 43200, xs[xs.length - 1] + 43200] } }
    };
    if (categorical) { axes[0].splits = function () { return xs; }; }
    return new uPlot(opts, [xs].concat(spec.series.map(function (s) { return s.values; })), el);
  }

  function drawCharts(root) {
    if (typeof uPlot === "undefined") { return; }
    (root || document).querySelectorAll("[data-chart]").forEach(function (el) {
      if (el.dataset.drawn) { return; }
      var spec = JSON.parse(document.getElementById(el.dataset.chart).textContent);
      var box = el.querySelector(".plot");
      if (!spec.series.length || !(spec.labels || spec.x).length) {
        box.textContent = "no data yet";
        box.className = "plot muted";
      } else {
        barsOrLines(box, spec);
      }
      el.dataset.drawn = "1";
    });
  }

  function selectAll(ev) {
    var on = ev.target.checked;
    document.querySelectorAll("input[name=ids]").forEach(function (box) { box.checked = on; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    drawCharts(document);
    var all = document.getElementById("select-all");
    if (all) { all.addEventListener("change", selectAll); }
    document.querySelectorAll("form[data-confirm]").forEach(function (f) {
      f.addEventListener("submit", function (ev) { if (!window.confirm(f.dataset.confirm)) { ev.preventDefault(); } });
    });
  });
  document.addEventListener("htmx:afterSwap", function (ev) { drawCharts(ev.target); });
})();
