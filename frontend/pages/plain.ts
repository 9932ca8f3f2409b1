// frontend/pages -> the plain pages the pages host answers when there is no page to show: withdrawn
// (410), not found (404), unavailable (503). No stylesheet, script or image: they must work when
// nothing else of the publication does.
import { escapeHtml } from './html';
import { documentHead } from './security';

const plainPage = (title: string, message: string): string =>
  [
    ...documentHead(title),
    '<body>',
    '<main>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>${escapeHtml(message)}</p>`,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');

/** The page of a withdrawn publication, answered with 410. */
export const renderWithdrawn = (): string =>
  plainPage('This page was withdrawn', 'The contract that was published at this address has been withdrawn.');

/** The page of an address where nothing is published, answered with 404. */
export const renderNotFound = (): string =>
  plainPage('Page not found', 'Nothing is published at this address. Check that the link is complete.');

/** The page answered with 503 when the store holding the pages cannot be read. */
export const renderUnavailable = (): string =>
  plainPage('Temporarily unavailable', 'This page cannot be shown right now. Please try again in a minute.');

/** The page answered with 405 to a method other than GET or HEAD. */
export const renderNotAllowed = (): string => plainPage('Not allowed', 'These pages can only be read.');
