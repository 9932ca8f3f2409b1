// pages -> the rules the review and snapshot pages add to the viewer's stylesheet: the
// lawyer's review beside the contract pages, and the Markdown it is written in.
//
// Layout: one column on a phone, the review first, then the thumbnails' strip, then the pages (the
// viewer's rules); from 56rem the thumbnails are a column with the review above the pages; from 64rem
// the review is a column of its own beside the pages, staying in view (scrolling within itself) while
// the pages scroll. Long words, addresses and table cells wrap, so nothing scrolls sideways.
export const REVIEW_CSS = `.reviewed{display:grid;grid-template-columns:minmax(0,1fr);grid-template-areas:"review" "thumbs" "pages"}
.reviewed>.review{grid-area:review}
.reviewed>.thumbs{grid-area:thumbs}
.reviewed>.pages,.reviewed>.text-view{grid-area:pages}
.prepared,.note{margin:0 0 .75rem;overflow-wrap:anywhere}
.note{color:#49525d}
.review{min-width:0;background:#fff;border-bottom:1px solid #cfd4da;padding:1rem;overflow-wrap:anywhere}
.review-title{margin:0;font-size:1.25rem;line-height:1.3}
.review-meta{margin:.25rem 0 1rem;color:#49525d}
.review-body{max-width:42rem}
.review-body h3,.review-body h4,.review-body h5,.review-body h6{margin:1.25rem 0 .5rem;line-height:1.3}
.review-body h3{font-size:1.125rem}
.review-body h4{font-size:1rem}
.review-body h5,.review-body h6{font-size:.9375rem}
.review-body p,.review-body ul,.review-body ol,.review-body blockquote,.review-body pre,.review-body table{margin:0 0 .75rem}
.review-body ul,.review-body ol{padding-left:1.5rem}
.review-body li+li{margin-top:.25rem}
.review-body blockquote{padding-left:.75rem;border-left:3px solid #cfd4da;color:#343a40}
.review-body code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.9em}
.review-body pre{padding:.5rem .75rem;background:#f6f7f9;border-radius:.25rem;white-space:pre-wrap}
.review-body table{border-collapse:collapse}
.review-body th,.review-body td{padding:.25rem .5rem;border:1px solid #cfd4da;text-align:left;vertical-align:top}
.review-body .align-center{text-align:center}
.review-body .align-right{text-align:right}
.review-body hr{margin:1rem 0;border:0;border-top:1px solid #cfd4da}
@media (min-width:56rem){
.reviewed{grid-template-columns:9rem minmax(0,1fr);grid-template-areas:"thumbs review" "thumbs pages"}
.review{padding:1.5rem}
}
@media (min-width:64rem){
.reviewed{grid-template-columns:9rem minmax(0,1fr) minmax(18rem,26rem);grid-template-areas:"thumbs pages review"}
.review{position:sticky;top:0;align-self:start;max-height:100vh;overflow-y:auto;border-bottom:0;border-left:1px solid #cfd4da}
}
@media (min-width:56rem){
body:has(.text-view:target) .reviewed{grid-template-columns:minmax(0,1fr);grid-template-areas:"review" "pages"}
}
@media (min-width:64rem){
body:has(.text-view:target) .reviewed{grid-template-columns:minmax(0,1fr) minmax(18rem,26rem);grid-template-areas:"pages review"}
}
@media print{
.reviewed{display:block}
.review{position:static;max-height:none;overflow:visible;border:0;break-after:page}
}
`;
