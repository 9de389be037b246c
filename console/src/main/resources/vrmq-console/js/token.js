// The admin token: asked for when a write is refused with 401, kept in this module's memory only (never in a URL,
// localStorage, sessionStorage or a cookie), so closing or reloading the tab forgets it.

let token = null;

export function authorization() {
  return token ? {Authorization: `Bearer ${token}`} : {};
}

export function hasToken() {
  return token !== null;
}

/** Shows the token dialog; resolves true when a token was entered, false when cancelled. */
export function askForToken() {
  const dialog = document.getElementById('token-dialog');
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  const cancel = document.getElementById('token-cancel');
  input.value = '';
  return new Promise(resolve => {
    const finish = entered => {
      form.removeEventListener('submit', onSubmit);
      cancel.removeEventListener('click', onCancel);
      document.removeEventListener('keydown', onKey);
      if (entered) token = input.value.trim();
      input.value = '';
      dialog.hidden = true;
      updateButton();
      resolve(entered);
    };
    const onSubmit = event => {
      event.preventDefault();
      if (input.value.trim() !== '') finish(true);
    };
    const onCancel = () => finish(false);
    const onKey = event => { if (event.key === 'Escape') finish(false); };
    form.addEventListener('submit', onSubmit);
    cancel.addEventListener('click', onCancel);
    document.addEventListener('keydown', onKey);
    dialog.hidden = false;
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
