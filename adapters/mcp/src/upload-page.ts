// The page behind browser_upload_url: a person picks the STEP file and the browser PUTs it to this
// same URL (the link's token is the credential), so an agent without file access can still upload.
import { contentSecurityPolicy, cspHash } from '@kerf/http';

const SCRIPT = `
const status = document.getElementById('status');
document.getElementById('file').addEventListener('change', async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  status.textContent = 'Uploading ' + file.name + '...';
  try {
    const res = await fetch(location.href, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: file });
    const body = await res.json();
    status.textContent = res.ok ? 'Uploaded. Design ' + body.design_id + ' is being analyzed; you can return to your assistant.' : 'Upload failed: ' + body.error.message;
  } catch (err) { status.textContent = 'Upload failed: ' + err; }
});
`;

/** Only this page's own script runs (by its hash), nothing is loaded from elsewhere, no referrer leaves with the token. */
const STYLE = 'body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}#status{margin-top:1rem}';

export const UPLOAD_PAGE_HEADERS = {
  'content-security-policy': contentSecurityPolicy({ scripts: [cspHash(SCRIPT)], styles: [cspHash(STYLE)], formAction: 'none' }),
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export function uploadPage(maxBytes: number): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Upload a STEP file - Kerf</title>
<style>${STYLE}</style>
</head><body>
<h1>Upload a STEP file</h1>
<p>Choose the .step or .stp file your assistant asked for (at most ${Math.round(maxBytes / 1048576)} MiB). This link works for 15 minutes.</p>
<input id="file" type="file" accept=".step,.stp,.STEP,.STP">
<p id="status" role="status"></p>
<script>${SCRIPT}</script>
</body></html>
`;
}
