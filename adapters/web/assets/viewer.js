// The design page's formed / flat switch: each part's <model-viewer> carries both model URLs, and
// the buttons (keyboard-usable, aria-pressed) swap which one it shows.
for (const group of document.querySelectorAll('[data-viewer]')) {
  const viewer = document.getElementById(group.getAttribute('data-viewer'));
  if (!viewer) continue;
  for (const button of group.querySelectorAll('button[data-src]')) {
    button.hidden = false;
    button.addEventListener('click', () => {
      viewer.setAttribute('src', button.getAttribute('data-src'));
      for (const b of group.querySelectorAll('button[data-src]')) b.setAttribute('aria-pressed', String(b === button));
    });
  }
}
