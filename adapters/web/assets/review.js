// The review page's save: the edited JSON goes to the same URL (the link id is the credential); the
// API's refusal (an unknown part or material, with the closest ids) is shown as it comes.
const form = document.getElementById('review-form');
const save = document.getElementById('save');
const msg = document.getElementById('msg');
if (form && save) {
  save.hidden = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    let configuration;
    try { configuration = JSON.parse(document.getElementById('cfg').value); } catch (e) { msg.className = 'err'; msg.textContent = 'Not valid JSON: ' + e.message; return; }
    const r = await fetch(location.pathname, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ configuration }) });
    const body = await r.json();
    if (r.ok) { msg.className = 'ok'; msg.textContent = 'Saved.'; document.getElementById('status').textContent = body.status; }
    else { msg.className = 'err'; msg.textContent = (body.error.param ? body.error.param + ': ' : '') + body.error.message; }
  });
}
