/**
 * The small script that keeps a dashboard page live while a crawl, a training run or a file's
 * reading is under way: it polls the page's own JSON twin (same URL, `Accept: application/json`)
 * and writes the values into the elements marked `data-live="<dotted path>"`. When nothing is under
 * way any more it reloads the page once, so the tables and buttons show the finished state.
 *
 * Polling, not a stream: every poll is an ordinary authenticated GET through the route table, and
 * a page left open in a background tab costs one small request every two seconds at most.
 */

/** `<script>` that polls `url` every `everyMs` while the JSON's `underway` is true. */
export function liveScript(url: string, everyMs = 2000): string {
	return `<script>(function(){
var url=${JSON.stringify(url)};
function pick(o,p){return p.split(".").reduce(function(v,k){return v==null?v:v[k];},o);}
function tick(){
fetch(url,{headers:{Accept:"application/json"},credentials:"same-origin",cache:"no-store"}).then(function(r){return r.ok?r.json():null;}).then(function(body){
if(!body){setTimeout(tick,${everyMs}*2);return;}
document.querySelectorAll("[data-live]").forEach(function(el){var v=pick(body,el.getAttribute("data-live"));if(v!=null)el.textContent=String(v);});
if(body.underway){setTimeout(tick,${everyMs});}else{location.reload();}
}).catch(function(){setTimeout(tick,${everyMs}*2);});
}
setTimeout(tick,${everyMs});
})();</script>`;
}
