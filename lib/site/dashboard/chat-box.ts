/**
 * A small chat box that talks to the public chat API (`POST /api/chat/{slug}/messages`), the same
 * one the chat page and the widget use: the owner's Try it tab and the home page's sandbox both
 * embed it. Answers and citations are written as text nodes, never as HTML. Each answer is
 * announced as a `chat:answered` event with the messages used, for pages that show them.
 */
import { escapeHtml } from "../render-markdown";

export interface ChatBoxCopy {
	label: string;
	placeholder: string;
	send: string;
	thinking: string;
	sources: string;
	failed: string;
}

export const CHAT_BOX_EN: ChatBoxCopy = {
	label: "Your question",
	placeholder: "Ask something your sources answer…",
	send: "Send",
	thinking: "Thinking…",
	sources: "Sources",
	failed: "The message could not be answered"
};

export const CHAT_BOX_CSS =
	"<style>" +
	".chatbox{border:1px solid var(--line);border-radius:var(--radius);background:var(--card);padding:12px;display:grid;gap:10px;max-width:46rem}" +
	".chatlog{display:grid;gap:8px;min-height:4em;max-height:60vh;overflow-y:auto}" +
	".chatlog:empty:before{content:attr(data-empty);color:var(--muted)}" +
	".msg{padding:8px 12px;border-radius:12px;max-width:90%;overflow-wrap:anywhere;white-space:pre-wrap}" +
	".msg.me{justify-self:end;background:var(--accent);color:var(--accent-fg)}" +
	".msg.bot{justify-self:start;background:var(--accent-soft)}" +
	".msg.err{background:var(--warn-bg);border:1px solid var(--warn-line)}" +
	".msg .cites{display:block;font-size:.85rem;color:var(--muted);margin-top:4px;white-space:normal}" +
	".chatbox form{display:flex;gap:8px;margin:0;align-items:end}" +
	".chatbox form label{flex:1;display:grid;gap:4px;font-weight:600}" +
	".chatbox input[type=text]{font:inherit;padding:9px 12px;border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--fg);width:100%}" +
	".chatbox button{font:inherit;font-weight:600;padding:9px 16px;border-radius:999px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer}" +
	"</style>";

/** The box; `apiUrl` is the chatbot's messages endpoint. */
export function chatBox(apiUrl: string, copy: ChatBoxCopy = CHAT_BOX_EN, empty = ""): string {
	return `<div class="chatbox" data-chat="${escapeHtml(apiUrl)}">
<div class="chatlog" role="log" aria-live="polite" aria-label="Conversation" data-empty="${escapeHtml(empty)}"></div>
<form><label>${escapeHtml(copy.label)} <input type="text" name="message" required maxlength="2000" autocomplete="off" placeholder="${escapeHtml(copy.placeholder)}"></label><button type="submit" data-action="send">${escapeHtml(copy.send)}</button></form>
</div>
<script>(function(){
var copy=${JSON.stringify(copy).replace(/</g, "\\u003c")};
document.querySelectorAll("[data-chat]").forEach(function(box){
if(box.getAttribute("data-ready"))return;box.setAttribute("data-ready","1");
var url=box.getAttribute("data-chat");var log=box.querySelector(".chatlog");var form=box.querySelector("form");var input=form.querySelector("input");var conversation=null;
function add(cls,text){var p=document.createElement("p");p.className="msg "+cls;p.textContent=text;log.append(p);log.scrollTop=log.scrollHeight;return p;}
form.addEventListener("submit",function(e){e.preventDefault();var text=input.value.trim();if(!text)return;input.value="";add("me",text);var wait=add("bot",copy.thinking);wait.setAttribute("data-pending","1");
var body={message:text};if(conversation)body.conversation_id=conversation;
fetch(url,{method:"POST",headers:{"Content-Type":"application/json",Accept:"application/json"},body:JSON.stringify(body)}).then(function(r){return r.json();}).then(function(j){wait.removeAttribute("data-pending");
if(!j.ok){wait.className="msg bot err";wait.textContent=copy.failed+": "+(j.message||"error");wait.setAttribute("data-answer","error");return;}
conversation=j.conversation_id;box.dispatchEvent(new CustomEvent("chat:answered",{bubbles:true,detail:{messages_used:j.messages_used,max_messages:j.max_messages}}));wait.textContent=j.answer;wait.setAttribute("data-answer",j.answered?"answered":"declined");
if(j.citations&&j.citations.length){var c=document.createElement("span");c.className="cites";c.textContent=copy.sources+": "+j.citations.map(function(x){return x.title||x.url||x.file_name;}).join(" · ");wait.append(c);}
}).catch(function(){wait.removeAttribute("data-pending");wait.className="msg bot err";wait.textContent=copy.failed+".";wait.setAttribute("data-answer","error");});});
});
})();</script>`;
}
