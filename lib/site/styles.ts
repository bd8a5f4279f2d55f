/**
 * The site's one stylesheet, inlined into every page so a page is a single request and the site
 * needs no static-file route. Mobile first: one column with the docs navigation after the article,
 * code and tables scroll inside their own boxes. Follows the reader's light or dark preference.
 */
export const SITE_CSS = `
:root{--bg:#fbfbfd;--fg:#1c1d22;--muted:#5b5f6b;--line:#e3e5ea;--card:#fff;--accent:#4f46e5;--accent-fg:#fff;--accent-soft:#eef0ff;--code-bg:#f3f4f7;--pre-bg:#16181d;--pre-fg:#e8e9ee;--warn-bg:#fff7e0;--warn-line:#f0c350;
--radius:10px;--font:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
@media (prefers-color-scheme:dark){:root{--bg:#111217;--fg:#e7e8ec;--muted:#a0a4b0;--line:#2a2d36;--card:#181a21;--accent:#8b85ff;--accent-fg:#0d0e12;--accent-soft:#23244a;--code-bg:#22252e;--pre-bg:#0b0c10;--pre-fg:#e8e9ee;--warn-bg:#2c2612;--warn-line:#8a6d1a}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 var(--font)}
a{color:var(--accent)}
a:hover{text-decoration-thickness:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:var(--card);padding:6px 10px;z-index:10}
.wrap{max-width:1120px;margin:0 auto;padding:0 20px}
header.site{border-bottom:1px solid var(--line);background:var(--card)}
header.site .wrap{display:flex;flex-wrap:wrap;align-items:center;gap:8px 20px;min-height:60px;padding-top:8px;padding-bottom:8px}
.brand{font-weight:700;font-size:1.05rem;color:var(--fg);text-decoration:none;display:flex;align-items:center;gap:8px;margin-right:auto}
.brand .dot{width:22px;height:22px;border-radius:7px;background:var(--accent);display:inline-block;position:relative}
.brand .dot:after{content:"";position:absolute;left:5px;top:6px;width:12px;height:7px;border-radius:3px;background:var(--accent-fg)}
nav.main{display:flex;flex-wrap:wrap;gap:4px 16px;align-items:center}
nav.main a{color:var(--muted);text-decoration:none;font-weight:500;padding:4px 0}
nav.main a[aria-current=page],nav.main a:hover{color:var(--fg)}
.lang{display:inline-flex;border:1px solid var(--line);border-radius:999px;overflow:hidden}
nav.main .lang a,.lang span{display:inline-block;padding:2px 10px;font-size:.85rem;text-decoration:none;color:var(--muted)}
.lang span{background:var(--accent-soft);color:var(--fg);font-weight:600}
main{padding:32px 0 56px}
h1,h2,h3,h4{line-height:1.25;margin:1.6em 0 .5em}
h1{font-size:clamp(1.8rem,4vw,2.5rem);margin-top:.2em;letter-spacing:-.01em}
h2{font-size:1.45rem;padding-top:.4em;border-top:1px solid var(--line)}
h3{font-size:1.15rem}
h1 .anchor,h2 .anchor,h3 .anchor,h4 .anchor{float:left;margin-left:-1em;padding-right:.2em;color:var(--muted);text-decoration:none;opacity:0}
h2:hover .anchor,h3:hover .anchor,h4:hover .anchor{opacity:1}
h1 .anchor{display:none}
p,ul,ol{margin:0 0 1em}
li{margin:.2em 0}
code{font-family:var(--mono);font-size:.9em;background:var(--code-bg);padding:.1em .35em;border-radius:5px;overflow-wrap:anywhere}
pre{background:var(--pre-bg);color:var(--pre-fg);padding:14px 16px;border-radius:var(--radius);overflow-x:auto;line-height:1.45;font-size:.88rem}
pre code{background:none;padding:0;font-size:inherit;overflow-wrap:normal;color:inherit}
blockquote{margin:0 0 1em;padding:.6em 1em;border-left:4px solid var(--accent);background:var(--accent-soft);border-radius:0 var(--radius) var(--radius) 0}
blockquote p:last-child{margin-bottom:0}
.table-wrap{overflow-x:auto;margin:0 0 1.2em;border:1px solid var(--line);border-radius:var(--radius)}
table{border-collapse:collapse;width:100%;font-size:.93rem}
th,td{text-align:left;padding:8px 12px;border-bottom:1px solid var(--line);vertical-align:top}
tr:last-child td{border-bottom:0}
th{background:var(--code-bg);font-weight:600}
.notice{border:1px solid var(--warn-line);background:var(--warn-bg);padding:10px 14px;border-radius:var(--radius);margin:0 0 1.4em}
.lead{font-size:1.15rem;color:var(--muted);max-width:46rem}
.hero{padding:28px 0 8px}
.hero h1{font-size:clamp(2rem,6vw,3.2rem);max-width:18em}
.actions{display:flex;flex-wrap:wrap;gap:10px;margin:22px 0}
.button{display:inline-block;padding:10px 18px;border-radius:999px;font-weight:600;text-decoration:none;border:1px solid var(--accent)}
.button.primary{background:var(--accent);color:var(--accent-fg)}
.button.secondary{color:var(--accent)}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(250px,1fr));gap:16px;margin:20px 0 28px}
.card{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:18px 20px}
.card h2,.card h3{margin-top:0;border:0;padding:0;font-size:1.1rem}
.card p:last-child{margin-bottom:0}
.docs{display:grid;grid-template-columns:1fr;gap:24px}
.docs aside{order:2;border-top:1px solid var(--line);padding-top:8px}
.docs aside h2{font-size:.78rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);border:0;margin:1.2em 0 .3em;padding:0}
.docs aside ul{list-style:none;padding:0;margin:0}
.docs aside a{text-decoration:none;color:var(--fg);display:block;padding:3px 0;font-size:.95rem}
.docs aside a[aria-current=page]{color:var(--accent);font-weight:600}
.docs article{min-width:0;max-width:50rem}
.doc-meta{display:flex;flex-wrap:wrap;gap:8px 16px;font-size:.9rem;color:var(--muted);margin:-.2em 0 1.4em}
@media (min-width:900px){.docs{grid-template-columns:240px minmax(0,1fr);gap:40px}.docs aside{order:-1;border:0;padding:0}.docs aside nav{position:sticky;top:16px}}
footer.site{border-top:1px solid var(--line);color:var(--muted);font-size:.92rem;padding:24px 0 40px}
footer.site .wrap{display:flex;flex-wrap:wrap;gap:8px 22px;align-items:center}
footer.site a{color:var(--muted)}
footer.site .spacer{margin-right:auto}
`
	.trim()
	.replace(/\n/g, "");
