// Sets the colour scheme before the console's first paint (an inline script would break the CSP).
try {
  var stored = window.localStorage.getItem('kyc-desk.color-scheme');
  var scheme = stored === 'light' || stored === 'dark' ? stored : 'auto';
  if (scheme === 'auto')
    scheme = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
} catch {
  document.documentElement.setAttribute('data-mantine-color-scheme', 'light');
}
