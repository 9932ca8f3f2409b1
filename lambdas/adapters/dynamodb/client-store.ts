// adapter -> clients (buyers), listed newest first per integration (gsi1) or per onboarding (gsi2).
// They are written by the onboarding store, with the submission that names them.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Client, Page, Scope } from '../../core/model';
import type { ClientStore, Clock } from '../../core/ports';
import { clientItem, indexPosition, toClient } from './items';
import { keys } from './keys';
import { getItem, queryAll, queryNewestFirst } from './table';
import { LIST_INDEX, SECOND_INDEX } from './table-schema';

export class DynamoDbClientStore implements ClientStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    // Kept for a uniform constructor; reads need no time.
    readonly clock: Clock,
  ) {}

  async get(id: string): Promise<Client | null> {
    const item = await getItem(this.doc, this.tableName, keys.client(id));
    return item ? toClient(item) : null;
  }

  async listByOnboarding(onboardingId: string): Promise<Client[]> {
    const items = await queryAll(
      this.doc,
      this.tableName,
      SECOND_INDEX,
      keys.onboardingClientList(onboardingId),
    );
    return items.map(toClient);
  }

  async list(
    scope: Scope,
    options: { limit: number; onboardingId?: string; startingAfter?: Client },
  ): Promise<Page<Client>> {
    const index = options.onboardingId !== undefined ? SECOND_INDEX : LIST_INDEX;
    const page = await queryNewestFirst(this.doc, this.tableName, {
      index,
      partition:
        options.onboardingId !== undefined
          ? keys.onboardingClientList(options.onboardingId)
          : keys.clientList(scope.integrationId),
      limit: options.limit,
      after: options.startingAfter && indexPosition(clientItem(options.startingAfter), index),
    });
    // An onboarding's clients share its scope; the filter keeps another scope's onboarding id harmless.
    const items = page.items.map(toClient).filter((c) => c.scope.integrationId === scope.integrationId);
    return { items, hasMore: page.hasMore };
  }
}
