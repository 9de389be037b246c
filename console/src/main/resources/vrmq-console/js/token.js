// The write credentials: asked for when a write is refused with 401, kept in this module's memory only (never in a
// URL, localStorage, sessionStorage or a cookie), so closing or reloading the tab forgets them. Either the broker's
// admin token (Authorization: Bearer) or, when the broker authenticates with ACL 2.0 and has no admin token, an
// enabled Super user's name and password (Authorization: Basic); the 401's WWW-Authenticate says which.

let credential = null;   // {scheme: 'Bearer' | 'Basic', value}

export function authorization() {
  return credential ? {Authorization: `${credential.scheme} ${credential.value}`} : {};
}

export function hasToken() {
  return credential !== null;
}

/** base64 of UTF-8 text (btoa alone takes Latin-1 only). */
function base64(text) {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Shows the credentials dialog for {@code scheme} ('Bearer': the admin token, 'Basic': a Super user); resolves true
 * when credentials were entered, false when cancelled.
 */
export function askForToken(scheme = 'Bearer') {
  const isBasic = /^basic/i.test(scheme || '');
  const dialog = document.getElementById('token-dialog');
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  const username = document.getElementById('cred-username');
  const password = document.getElementById('cred-password');
  const cancel = document.getElementById('token-cancel');
  document.getElementById('token-fields').hidden = isBasic;
  document.getElementById('basic-fields').hidden = !isBasic;
  document.getElementById('token-title').textContent = isBasic ? 'Super user' : 'Admin token';
  input.value = '';
  username.value = '';
  password.value = '';
  const isComplete = () => isBasic ? username.value.trim() !== '' && password.value !== ''
    : input.value.trim() !== '';
  return new Promise(resolve => {
    const finish = entered => {
      form.removeEventListener('submit', onSubmit);
      cancel.removeEventListener('click', onCancel);
      document.removeEventListener('keydown', onKey);
      if (entered) {
        credential = isBasic ? {scheme: 'Basic', value: base64(`${username.value.trim()}:${password.value}`)}
          : {scheme: 'Bearer', value: input.value.trim()};
      }
      input.value = '';
      username.value = '';
      password.value = '';
      dialog.hidden = true;
      updateButton();
      resolve(entered);
    };
    const onSubmit = event => {
      event.preventDefault();
      if (isComplete()) finish(true);
    };
    const onCancel = () => finish(false);
    const onKey = event => { if (event.key === 'Escape') finish(false); };
    form.addEventListener('submit', onSubmit);
    cancel.addEventListener('click', onCancel);
    document.addEventListener('keydown', onKey);
    dialog.hidden = false;
    (isBasic ? username : input).focus();
  });
}

export function forgetToken() {
  credential = null;
  updateButton();
}

function updateButton() {
  const button = document.getElementById('token-button');
  if (button) button.textContent = credential ? 'Forget credentials' : 'Admin token…';
}

export function wireTokenButton() {
  document.getElementById('token-button').addEventListener('click', () => {
    if (credential) forgetToken(); else askForToken();
  });
}
