// The admin token: asked for when a write is refused with 401, kept in this module's memory only (never in a URL,
// localStorage, sessionStorage or a cookie), so closing or reloading the tab forgets it.

let token = null;

export function authorization() {
  return token ? {Authorization: `Bearer ${token}`} : {};
}

export function hasToken() {
  return token !== null;
}

/** Opens the token dialog; resolves true when a token was entered, false when cancelled. */
export function askForToken() {
  const dialog = document.getElementById('token-dialog');
  const input = document.getElementById('token-input');
  input.value = '';
  return new Promise(resolve => {
    dialog.addEventListener('close', () => {
      const entered = dialog.returnValue === 'ok' && input.value.trim() !== '';
      if (entered) token = input.value.trim();
      input.value = '';
      updateButton();
      resolve(entered);
    }, {once: true});
    dialog.showModal();
    input.focus();
  });
}

export function forgetToken() {
  token = null;
  updateButton();
}

function updateButton() {
  const button = document.getElementById('token-button');
  if (button) button.textContent = token ? 'Forget token' : 'Admin token…';
}

export function wireTokenButton() {
  document.getElementById('token-button').addEventListener('click', () => {
    if (token) forgetToken(); else askForToken();
  });
}
