// pages -> the plain pages the pages host answers when there is no page to show: withdrawn
// (410), not found (404), unavailable (503). In the pages' own look, from one inline style the CSP
// allows by its hash (plain-style.ts), and no file, script or image: they must work when nothing else of
// the publication does. Each says what happened and what the reader can do.
import { escapeHtml } from './html';
import { ICON_PATH, PLAIN_CSS } from './plain-style';
import { documentHead } from './security';

const plainPage = (title: string, message: string, next?: string): string =>
  [
    ...documentHead(title, [
      `<link rel="icon" href="${ICON_PATH}" type="image/svg+xml">`,
      `<style>${PLAIN_CSS}</style>`,
    ]),
    '<body>',
    '<main>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>${escapeHtml(message)}</p>`,
    ...(next ? [`<p class="next">${escapeHtml(next)}</p>`] : []),
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');

/** The page of a withdrawn publication, answered with 410. */
export const renderWithdrawn = (): string =>
  plainPage(
    'This page was withdrawn',
    'The organisation that published this contract has taken it down, so it can no longer be read at this ' +
      'address. It may have been replaced by a newer version, or the sale may have changed.',
    'If you still need it, ask whoever sent you this link (your agent, conveyancer or lawyer) for the current ' +
      'contract. Copies you saved before it was withdrawn are unchanged.',
  );

/** The page of an address where nothing is published, answered with 404. */
export const renderNotFound = (): string =>
  plainPage('Page not found', 'Nothing is published at this address. Check that the link is complete.');

/** The page answered with 503 when the store holding the pages cannot be read. */
export const renderUnavailable = (): string =>
  plainPage('Temporarily unavailable', 'This page cannot be shown right now. Please try again in a minute.');

/** The page answered with 405 to a method other than GET or HEAD. */
export const renderNotAllowed = (): string => plainPage('Not allowed', 'These pages can only be read.');
