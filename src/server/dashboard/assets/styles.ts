/**
 * The dashboard's only stylesheet, served from /assets/ (the CSP allows no inline style): system
 * fonts, nothing fetched from elsewhere. Colours keep text at WCAG AA contrast or better (4.5:1
 * and up on white), and focus is always visible.
 */
export const DASHBOARD_CSS = `
:root{--fg:#1f2328;--muted:#57606a;--line:#d0d7de;--bg:#fff;--panel:#f6f8fa;--accent:#0a58ca;--ok:#116329;--bad:#a40e26;--mark:#fff1a8}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
.skip{position:absolute;left:-9999px}
.skip:focus{left:8px;top:8px;background:var(--bg);padding:4px 8px;z-index:1}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.top{display:flex;flex-wrap:wrap;align-items:center;gap:16px;padding:10px 24px;border-bottom:1px solid var(--line);background:var(--panel)}
.brand{font-weight:700}
.top nav ul{display:flex;flex-wrap:wrap;gap:4px;list-style:none;margin:0;padding:0}
.top nav a{display:block;padding:6px 10px;border-radius:6px;color:var(--fg);text-decoration:none}
.top nav a:hover{background:#eaeef2}
.top nav a[aria-current="page"]{background:var(--accent);color:#fff}
.logout{margin-left:auto}
main{padding:16px 24px 48px;max-width:1100px}
main:focus{outline:none}
h1{font-size:24px;margin:8px 0 16px}
h2{font-size:18px;margin:28px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}
table{border-collapse:collapse;margin:8px 0;width:100%}
th,td{border-bottom:1px solid var(--line);padding:6px 10px;text-align:left;vertical-align:middle}
thead th{background:var(--panel)}
code,pre,textarea{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:10px;overflow:auto;white-space:pre-wrap;word-break:break-word}
form.inline{display:inline-flex;gap:6px;align-items:center;margin:0}
.field{display:flex;flex-direction:column;gap:4px;margin:10px 0;max-width:720px}
label{font-weight:600}
.hint{color:var(--muted);font-weight:normal;font-size:13px}
input[type=text],select,textarea{font:inherit;padding:6px 8px;border:1px solid #8c959f;border-radius:6px;background:#fff;color:var(--fg)}
textarea{min-height:7em;width:100%}
::placeholder{color:var(--muted);opacity:1}
button{font:inherit;padding:6px 12px;border:1px solid #8c959f;border-radius:6px;background:#fff;color:var(--fg);cursor:pointer}
button:hover{background:#eaeef2}
button.primary{background:var(--accent);border-color:var(--accent);color:#fff}
button.danger{color:var(--bad);border-color:var(--bad)}
.notice{border:1px solid var(--line);border-left-width:6px;border-radius:6px;padding:8px 12px;margin:12px 0;background:var(--panel)}
.notice p{margin:0}
.notice.ok{border-left-color:var(--ok)}
.notice.error{border-left-color:var(--bad)}
.secret{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0}
.secret code{font-size:15px;padding:6px 8px;background:#fff;border:1px solid var(--line);border-radius:6px;user-select:all;word-break:break-all}
.status-active{color:var(--ok);font-weight:600}
.status-revoked{color:var(--muted)}
.verdict{font-size:20px;font-weight:700}
.verdict.flagged,.flagged{color:var(--bad)}
.verdict.allowed,.clean{color:var(--ok)}
mark{background:var(--mark);color:var(--fg);border-bottom:2px solid #9a6700;padding:0 1px}
.muted{color:var(--muted)}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
fieldset.field{border:1px solid var(--line);border-radius:6px;padding:8px 12px}
fieldset label{font-weight:normal}
.actions{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
`;
