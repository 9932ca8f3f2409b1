// pages -> the contract viewer's fixed stylesheet. The per-run positions are appended to it by
// viewer.ts, so the page needs no inline style and the CSP can refuse 'unsafe-inline'.
//
// Layout: one column on a phone (thumbnails a strip that scrolls sideways within itself), thumbnails a
// sticky column beside the pages from 56rem. A page's text layer sits over its image, set in the font
// the pages ship (text-layer-font.ts); each run's font size is in `cqw` of the page (`.sheet` is an
// inline-size container), so the layer scales with it.
import { TEXT_LAYER_FAMILY } from './text-layer-font';

export const VIEWER_BASE_CSS = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1b1f24;background:#e9ecef}
a{color:#0b57d0}
:focus-visible{outline:3px solid #1b1f24;outline-offset:2px}
.skip{position:absolute;left:.5rem;top:-4rem;padding:.5rem .75rem;background:#fff;color:#0b57d0;z-index:2}
.skip:focus{top:.5rem}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0}
.top{background:#fff;border-bottom:1px solid #cfd4da;padding:1rem}
.top h1{margin:0;font-size:1.375rem;line-height:1.3;overflow-wrap:anywhere}
.sender{margin:.25rem 0 0;font-weight:600;overflow-wrap:anywhere}
.meta{margin:.25rem 0 .75rem;color:#49525d}
.actions{margin:0}
.download{display:inline-block;padding:.5rem .9rem;border-radius:.375rem;background:#0b57d0;color:#fff;font-weight:600;text-decoration:none}
.download:hover{background:#0842a0}
.layout{display:grid;grid-template-columns:minmax(0,1fr)}
.thumbs{background:#f6f7f9;border-bottom:1px solid #cfd4da;min-width:0}
.thumbs ol{list-style:none;margin:0;padding:.5rem;display:flex;gap:.5rem;overflow-x:auto}
.thumbs li{flex:0 0 auto}
.thumbs a{display:block;width:4.5rem;padding:.25rem;border-radius:.25rem;text-align:center;color:#1b1f24;text-decoration:none;font-size:.8125rem;line-height:1.4}
.thumbs a:hover{background:#e2e6ea}
.thumbs img{display:block;width:100%;height:auto;margin-bottom:.125rem;border:1px solid #c4cad1;background:#fff}
.pages{min-width:0;padding:1rem .5rem 2rem;display:flex;flex-direction:column;align-items:center;gap:1.5rem}
.page{width:100%;max-width:60rem;scroll-margin-top:.5rem}
.page-title{margin:0 0 .25rem;font-size:.875rem;font-weight:600;color:#49525d}
.sheet{position:relative;container-type:inline-size;background:#fff;box-shadow:0 1px 3px rgba(0,0,0,.3)}
.scan{display:block;width:100%;height:auto}
.text-layer{position:absolute;inset:0;overflow:hidden;color:transparent;line-height:1;font-family:"${TEXT_LAYER_FAMILY}",sans-serif;font-weight:400;font-style:normal;letter-spacing:0;word-spacing:0;font-kerning:none;font-variant-ligatures:none;font-synthesis:none}
.text-layer span{position:absolute;white-space:pre;transform-origin:0 0;cursor:text}
.text-layer ::selection{background:rgba(11,87,208,.3);color:transparent}
.controls{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.25rem;margin:.75rem 0 0}
.views{display:flex;gap:.5rem}
.views a,.zoom label{display:inline-block;min-height:2.5rem;padding:.5rem .75rem;border:1px solid #8a939e;border-radius:.375rem;background:#fff;color:#1b1f24;line-height:1.4;text-decoration:none}
.views a{font-weight:600;color:#0b57d0;border-color:#0b57d0}
.zoom{display:flex;flex-wrap:wrap;align-items:center;gap:.375rem;margin:0;padding:0;border:0;min-width:0}
.zoom legend{float:left;margin-right:.25rem;padding:0;color:#49525d}
.zoom input{position:absolute;opacity:0;width:1px;height:1px;margin:0}
.zoom label{cursor:pointer}
.zoom input:checked+label{background:#0b57d0;border-color:#0b57d0;color:#fff;font-weight:600}
.zoom input:focus-visible+label{outline:3px solid #1b1f24;outline-offset:2px}
body:has(#zoom-150:checked) .page{width:calc(1.5 * min(100%,60rem));max-width:none}
body:has(#zoom-200:checked) .page{width:calc(2.0 * min(100%,60rem));max-width:none}
body:has(#zoom-300:checked) .page{width:calc(3.0 * min(100%,60rem));max-width:none}
body:has(.zoom input:not(#zoom-fit):checked) .pages{align-items:flex-start;overflow-x:auto}
.text-view{display:none;min-width:0;max-width:44rem;width:100%;margin:0 auto;padding:1rem 1rem 3rem;background:#fff;font-size:1.125rem;line-height:1.6;overflow-wrap:anywhere}
.text-view:target{display:block}
.text-view:focus{outline:0}
body:not(:has(.text-view:target)) .views a[href="#pages"],body:has(.text-view:target) .views a[href="#text"]{background:#0b57d0;color:#fff}
body:has(.text-view:target) .pages,body:has(.text-view:target) .thumbs,body:has(.text-view:target) .zoom{display:none}
.contract{min-width:0}
body:has(.text-view:target) .layout{display:block}
.text-view-title{margin:0 0 .25rem;font-size:1.375rem;line-height:1.3}
.text-view-note{margin:0 0 1rem;color:#49525d;font-size:1rem}
.text-page{border-top:1px solid #cfd4da;padding-top:.5rem;margin-top:1.5rem}
.text-page-title{margin:0 0 .5rem;font-size:.9375rem;font-weight:600;color:#49525d}
.text-view h4{margin:1.25rem 0 .5rem;font-size:1.25rem;line-height:1.3}
.text-view p{margin:0 0 .875rem}
.notice{margin:0 0 .75rem;padding:.5rem .75rem;border-left:4px solid #b45309;background:#fff7ed;color:#1b1f24}
.page-notice{margin:0;padding:.5rem .75rem;background:#fff7ed;color:#1b1f24;border-top:1px solid #fed7aa}
.page-notice.over{position:absolute;left:1rem;right:1rem;top:40%;border:1px solid #fed7aa;border-radius:.375rem;text-align:center}
@media (min-width:56rem){
.layout{grid-template-columns:9rem minmax(0,1fr)}
.thumbs{border-bottom:0;border-right:1px solid #cfd4da}
.thumbs ol{position:sticky;top:0;flex-direction:column;align-items:center;max-height:100vh;overflow-x:hidden;overflow-y:auto;padding:1rem .5rem}
.thumbs a{width:6rem}
.pages{padding:1.5rem 1.5rem 3rem}
}
@media print{
body{background:#fff}
.thumbs,.skip,.actions,.controls,.text-view{display:none}
.page-notice a{color:inherit}
.layout{display:block}
.sheet{box-shadow:none}
.page{break-after:page}
}
`;
