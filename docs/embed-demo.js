// Auto-height for a Napkin iframe: accept height messages only from the iframe's own origin
// and window, and only numbers. Scores: from <napkin-problem> elements as a `napkin-score`
// event, from the iframe as a message of the same shape, which the frame sends only to the
// origin its URL names (&origin=…), so this page names its own.
(function () {
  var frame = document.getElementById('napkin-frame');
  frame.src = frame.dataset.src + '&origin=' + encodeURIComponent(location.origin);
  var origin = new URL(frame.src, location.href).origin;
  window.addEventListener('message', function (e) {
    if (e.origin !== origin || e.source !== frame.contentWindow) return;
    if (!e.data) return;
    if (e.data.type === 'napkin-score') return logScore(e.data, 'iframe');
    if (e.data.type !== 'napkin-height' || typeof e.data.height !== 'number') return;
    frame.style.height = Math.min(Math.max(e.data.height, 100), 5000) + 'px';
  });
  document.addEventListener('napkin-score', function (e) { logScore(e.detail, 'element'); });
  function logScore(s, from) {
    if (typeof s.problem !== 'string' || typeof s.score !== 'number') return;
    var li = document.createElement('li');
    li.textContent = s.problem + ' (variant ' + s.seed + ', ' + from + '): ' + s.verdict + ', score ' + s.score;
    document.getElementById('score-log').append(li);
  }
})();
