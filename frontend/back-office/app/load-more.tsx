// frontend/back-office -> lists read a page at a time with `Load more` (the Sign-ups and Organisations
// pages): the first `pages` pages of a `{data, has_more}` list, read one after another, each starting
// after the last row, so a reload after a change shows the same rows again, changed.
import { get, queryOf } from '../../app-kit/api';
import type { PageOf } from './types';

export const LIST_PAGE_SIZE = 50;

export const readPages = async <T extends { id: string }>(
  path: string,
  pages: number,
): Promise<{ rows: T[]; hasMore: boolean }> => {
  const rows: T[] = [];
  let hasMore = false;
  for (let page = 0; page < pages; page += 1) {
    const answer = await get<PageOf<T>>(
      `${path}${queryOf({ limit: String(LIST_PAGE_SIZE), starting_after: rows.at(-1)?.id })}`,
    );
    rows.push(...answer.data);
    hasMore = answer.has_more;
    if (!hasMore) break;
  }
  return { rows, hasMore };
};

export const LoadMore = ({ onClick }: { onClick: () => void }) => (
  <p>
    <button type="button" class="secondary" onClick={onClick}>
      Load more
    </button>
  </p>
);
