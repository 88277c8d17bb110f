// Draws every chart of a Lockstep report with Apache ECharts (inlined above) as SVG.
// The chart options come from run.json's figures (see lockstep.coordinator.report.html).
(function () {
  'use strict';
  var charts = JSON.parse(document.getElementById('lockstep-charts').textContent);
  var drawn = 0;
  var instances = [];
  charts.forEach(function (c) {
    var el = document.getElementById('chart-' + c.id);
    if (!el) { return; }
    var chart = echarts.init(el, null, { renderer: 'svg' });
    chart.setOption(c.option);
    instances.push(chart);
    el.setAttribute('data-drawn', 'true');
    drawn++;
  });
  window.addEventListener('resize', function () {
    instances.forEach(function (i) { i.resize(); });
  });
  document.body.setAttribute('data-charts-drawn', String(drawn));
})();
