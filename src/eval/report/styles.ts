/** The report's only stylesheet, inlined: system fonts, no external resources. */
export const STYLES = `
:root{--fg:#1f2328;--muted:#656d76;--line:#d0d7de;--bg:#fff;--panel:#f6f8fa;--pos:#c2410c;--neg:#2563eb;--unl:#6b7280;--curve:#0f766e;--op:#111827;--rec:#b45309}
*{box-sizing:border-box}
body{margin:0;padding:24px 32px 48px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg);max-width:1180px}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:17px;margin:28px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:18px 0 6px}
.muted,.hint{color:var(--muted);font-weight:normal}
.warn,.banner{color:#9a3412}
.banner{background:#fff7ed;border:1px solid #fdba74;padding:8px 12px;border-radius:6px}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(112px,1fr));gap:8px}
.card{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:8px 12px}
.card .label{color:var(--muted);font-size:12px}
.card .value{font-size:22px;font-weight:600;font-variant-numeric:tabular-nums}
.card .hint{font-size:12px}
.row{display:flex;flex-wrap:wrap;gap:32px;align-items:flex-start}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:4px 0}
th,td{border-bottom:1px solid var(--line);padding:4px 10px;text-align:left;vertical-align:top}
thead th{background:var(--panel);font-weight:600}
.n{text-align:right}
table.confusion td.cm{width:170px;height:64px;text-align:center;border:1px solid var(--line)}
table.confusion td.cm b{display:block;font-size:22px}
table.confusion td.cm span{font-size:12px;color:var(--muted)}
table.confusion th{border:none;text-align:center}
.lat{display:flex;align-items:center;gap:10px;margin:3px 0}
.lat .k{width:40px;color:var(--muted)}
.lat .track{width:260px;height:10px;background:var(--panel);border:1px solid var(--line);border-radius:3px;overflow:hidden}
.lat .fill{display:block;height:100%;background:var(--curve)}
.lat .v{font-variant-numeric:tabular-nums}
.gates{list-style:none;padding:0}
.gates li{padding:3px 0}
.gates .pass b{color:#15803d}
.gates .fail b{color:#b91c1c}
.guardrail{margin-bottom:18px}
.figs{display:flex;flex-wrap:wrap;gap:14px}
figure{margin:0;width:min-content;background:var(--bg);border:1px solid var(--line);border-radius:8px;padding:6px}
.legend{margin:2px 4px 0;font-size:12px}
.key{margin-right:10px;white-space:nowrap}
.key::before{content:"";display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:-1px;border-radius:2px}
.key.pos::before{background:var(--pos)}.key.neg::before{background:var(--neg)}.key.unl::before{background:var(--unl)}
.key.op::before{border-left:2px dashed var(--op);width:0;border-radius:0}.key.rec::before{border-left:2px dashed var(--rec);width:0;border-radius:0}
svg.chart{display:block;font-size:11px}
svg .grid{stroke:#eaeef2;stroke-width:1}
svg .plot{fill:none;stroke:var(--line)}
svg .tick{fill:var(--muted)}
svg .axis{fill:var(--fg);font-size:12px}
svg .note{fill:var(--fg);font-size:12px;font-weight:600}
svg .chance{fill:none;stroke:#9ca3af;stroke-dasharray:4 4}
svg .curve{fill:none;stroke:var(--curve);stroke-width:2.2;stroke-linejoin:round}
svg circle.op{fill:var(--op)}svg circle.rec{fill:var(--rec)}
svg text.mark{font-size:11px;font-weight:600}svg text.op{fill:var(--op)}svg text.rec{fill:var(--rec)}
svg .bar.pos{fill:var(--pos);opacity:.85}svg .bar.neg{fill:var(--neg);opacity:.85}svg .bar.unl{fill:var(--unl);opacity:.85}
svg .rule{stroke-width:2;stroke-dasharray:5 3}svg .rule.op{stroke:var(--op)}svg .rule.rec{stroke:var(--rec)}
details{margin:6px 0}
summary{cursor:pointer;color:var(--muted)}
.text{white-space:pre-wrap;overflow-wrap:anywhere;max-width:640px;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
footer{margin-top:36px;color:var(--muted);font-size:12px}
@media print{body{padding:0}details{display:block}}
`;
