// The upload form with drag-and-drop and a progress bar. Without JavaScript the same form posts as
// multipart and the server redirects to the design page; here XHR posts it so progress can be shown.
const form = document.getElementById('upload-form');
const input = document.getElementById('file');
const zone = document.getElementById('drop-zone');
const bar = document.getElementById('upload-progress');
const status = document.getElementById('upload-status');

function send(file) {
  const data = new FormData(form);
  data.set('file', file, file.name);
  const xhr = new XMLHttpRequest();
  xhr.open('POST', form.action);
  bar.hidden = false;
  bar.value = 0;
  status.textContent = `Uploading ${file.name}…`;
  xhr.upload.addEventListener('progress', (e) => {
    if (e.lengthComputable) bar.value = Math.round((100 * e.loaded) / e.total);
  });
  xhr.addEventListener('load', () => {
    if (xhr.status < 400 && xhr.responseURL) {
      bar.value = 100;
      status.textContent = 'Uploaded. Opening the design…';
      window.location.assign(xhr.responseURL);
    } else {
      const page = new DOMParser().parseFromString(xhr.responseText, 'text/html');
      const alert = page.querySelector('[role=alert]');
      bar.hidden = true;
      status.textContent = alert ? alert.textContent : `The upload failed (${xhr.status}).`;
    }
  });
  xhr.addEventListener('error', () => { status.textContent = 'The upload failed. Check your connection and try again.'; });
  xhr.send(data);
}

if (form && input && zone) {
  form.addEventListener('submit', (e) => {
    if (!input.files || !input.files[0]) return;
    e.preventDefault();
    send(input.files[0]);
  });
  for (const type of ['dragenter', 'dragover']) zone.addEventListener(type, (e) => { e.preventDefault(); zone.classList.add('over'); });
  for (const type of ['dragleave', 'drop']) zone.addEventListener(type, () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    const file = e.dataTransfer && e.dataTransfer.files[0];
    if (file) send(file);
  });
}
