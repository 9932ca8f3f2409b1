// pages -> the pages' one script, a file beside the page (the CSP allows this origin's scripts
// and nothing inline): each `<time datetime>` shown in the reader's own time zone, named. Without it
// (script off, an old browser) the page keeps the UTC time it was written with.
export const LOCAL_TIME_JS = `"use strict";
(function () {
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  var format = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short" });
  document.querySelectorAll("time[datetime]").forEach(function (time) {
    var at = new Date(time.getAttribute("datetime"));
    if (isNaN(at.getTime()) || !zone) return;
    time.textContent = format.format(at) + " (" + zone.replace(/_/g, " ") + " time)";
  });
})();
`;
