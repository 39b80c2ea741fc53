// Asks for the current page's chunks beside the entry, not after it has run: the build lists
// them per address in #route-chunks (vite-route-chunks.ts). An inline script would break the CSP.
(function () {
  var map = document.getElementById('route-chunks');
  if (!map) return;
  var routes = JSON.parse(map.textContent);
  var route = routes.find(function (candidate) {
    return new RegExp(candidate.path).test(location.pathname);
  });
  if (!route) return;
  route.files.forEach(function (file) {
    var link = document.createElement('link');
    var style = /\.css$/.test(file);
    link.rel = style ? 'preload' : 'modulepreload';
    if (style) link.as = 'style';
    // Module scripts and Vite's own style links are fetched in CORS mode: the same request.
    link.crossOrigin = '';
    link.href = file;
    document.head.appendChild(link);
  });
})();
