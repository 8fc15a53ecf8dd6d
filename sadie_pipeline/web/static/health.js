// sadie web: the health page's charts (uPlot), from the JSON each chart section carries. Labels never
// overlap: a time axis labels each date once (only days that have data, thinned to fit), a category
// axis shortens long names, slants them when they do not fit side by side, and thins them out last.
(function () {
  "use strict";

  var PALETTE = ["#2456a6", "#b42318", "#1b7a3d", "#9a6700", "#6941c6", "#0e7490", "#c11574", "#475467"];
  var FONT = "12px system-ui, sans-serif";
  var DATE_PX = 84;      // a date label and the space after it
  var SLANTED_PX = 16;   // a slanted label's footprint along the axis
  var MAX_CHARS = 20;

  function fmtDay(ts) { return new Date(ts * 1000).toISOString().slice(0, 10); }

  function textWidth(text) {
    var ctx = textWidth.ctx || (textWidth.ctx = document.createElement("canvas").getContext("2d"));
    ctx.font = FONT;
    return ctx.measureText(text).width;
  }

  function shorten(label) {
    var text = String(label);
    return text.length > MAX_CHARS ? text.slice(0, MAX_CHARS - 1) + "…" : text;
  }

  function every(n, room, each) { return Math.max(1, Math.ceil(n * each / Math.max(room, 1))); }

  function timeAxis(xs, width) {
    var step = every(xs.length, width - 60, DATE_PX);
    var shown = xs.filter(function (_, i) { return i % step === 0; });
    return { splits: function () { return shown; }, values: function (u, splits) { return splits.map(fmtDay); },
             font: FONT };
  }

  function categoryAxis(labels, width) {
    var texts = labels.map(shorten);
    var widest = Math.max.apply(null, texts.map(textWidth).concat([0]));
    var slot = (width - 60) / Math.max(texts.length, 1);
    var slanted = widest + 8 > slot;
    var step = slanted ? every(texts.length, width - 60, SLANTED_PX) : 1;
    var xs = texts.map(function (_, i) { return i; });
    return {
      splits: function () { return xs; }, font: FONT, rotate: slanted ? -40 : 0,
      size: slanted ? Math.ceil(widest * 0.65) + 24 : 30,
      values: function (u, splits) { return splits.map(function (v) { return v % step === 0 ? texts[v] : ""; }); }
    };
  }

  function integers(spec) {
    return spec.series.every(function (s) { return s.values.every(function (v) { return v === Math.round(v); }); });
  }

  function draw(el, spec) {
    var width = Math.max(320, el.clientWidth - 16);
    var bars = spec.kind === "bars";
    var xs = bars ? spec.labels.map(function (_, i) { return i; }) : spec.x;
    var series = [{ label: bars ? "" : "day", value: bars ? function (u, v) { return spec.labels[v]; }
                                                        : function (u, v) { return v == null ? "" : fmtDay(v); } }];
    spec.series.forEach(function (s, i) {
      var conf = { label: s.label, stroke: PALETTE[i % PALETTE.length], width: 2, points: { size: 7 } };
      if (bars) {
        conf.fill = PALETTE[i % PALETTE.length] + "cc";
        conf.paths = uPlot.paths.bars({ size: [0.6, 60] });
        conf.points = { show: false };
      }
      series.push(conf);
    });
    var yAxis = { font: FONT };
    if (integers(spec)) { yAxis.incrs = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 100000]; }
    var opts = {
      width: width, height: 240, series: series, legend: { show: spec.series.length > 1 },
      axes: [bars ? categoryAxis(spec.labels, width) : timeAxis(xs, width), yAxis],
      scales: { x: bars ? { time: false, range: [-0.5, Math.max(0.5, xs.length - 0.5)] }
                        : { time: true, range: [xs[0] - 43200, xs[xs.length - 1] + 43200] } }
    };
    return new uPlot(opts, [xs].concat(spec.series.map(function (s) { return s.values; })), el);
  }

  function drawAll() {
    if (typeof uPlot === "undefined") { return; }
    document.querySelectorAll("[data-health-chart]").forEach(function (el) {
      if (el.dataset.drawn) { return; }
      var spec = JSON.parse(document.getElementById(el.dataset.healthChart).textContent);
      var box = el.querySelector(".plot");
      if (!spec.series.length || !(spec.labels || spec.x).length) {
        box.textContent = "no data yet";
        box.className = "plot muted";
      } else {
        draw(box, spec);
      }
      el.dataset.drawn = "1";
    });
  }

  document.addEventListener("DOMContentLoaded", drawAll);
})();
