// Auto-height for a Napkin iframe: accept height messages only from the iframe's own origin
// and window, and only numbers.
(function () {
  var frame = document.getElementById('napkin-frame');
  var origin = new URL(frame.src, location.href).origin;
  window.addEventListener('message', function (e) {
    if (e.origin !== origin || e.source !== frame.contentWindow) return;
    if (!e.data || e.data.type !== 'napkin-height' || typeof e.data.height !== 'number') return;
    frame.style.height = Math.min(Math.max(e.data.height, 100), 5000) + 'px';
  });
})();
