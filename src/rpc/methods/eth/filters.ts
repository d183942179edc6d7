/** Filters polled for changes (logs, blocks, pending transactions) and log queries (getLogs). */
import type { FilterChanges } from '../../../engine/logs/filters.js';
import { type FoundLog, TooManyLogsError } from '../../../engine/logs/logQuery.js';
import { quantity } from '../../codec.js';
import { encodeQuantity } from '../../encode.js';
import { ErrorCode, RpcError, invalidParams } from '../../errors.js';
import { formatLog } from '../../format.js';
import type { Json } from '../../json.js';
import { logFilter } from '../../logFilter.js';
import { type RpcContext, defineMethod, optionalParam, param } from '../../method.js';
import type { SubscriptionKind, Subscriptions } from '../../subscriptions.js';

/** The code Infura, Alchemy and others answer an oversized log query with; clients know to split the range. */
export const LIMIT_EXCEEDED = -32005;

/** Ids are 128-bit QUANTITYs; anything longer can only be unknown, so it is read leniently up to 256 bits. */
const filterId = quantity(256);

const formatLogs = (found: readonly FoundLog[]): Json[] => found.map((f) => formatLog(f.log, f.position, f.removed));

function formatChanges(changes: FilterChanges): Json[] {
  return changes.kind === 'logs' ? formatLogs(changes.logs) : changes.hashes;
}

/** Run a log query, answering an oversized result with -32005 and the cap, not a huge response. */
async function limited(run: () => Promise<readonly FoundLog[]>): Promise<Json[]> {
  try {
    return formatLogs(await run());
  } catch (error) {
    if (error instanceof TooManyLogsError) throw new RpcError(LIMIT_EXCEEDED, error.message, { limit: error.limit });
    throw error;
  }
}

const SUBSCRIPTION_KINDS: readonly SubscriptionKind[] = ['newHeads', 'logs', 'newPendingTransactions'];

const subscriptionKind = (value: unknown, path: string): SubscriptionKind => {
  if (!SUBSCRIPTION_KINDS.includes(value as SubscriptionKind)) {
    throw invalidParams(`invalid argument ${path}: expected one of ${SUBSCRIPTION_KINDS.join(', ')}`);
  }
  return value as SubscriptionKind;
};

/** Plain HTTP cannot push: the connection has no subscriptions then. */
function subscriptionsOf(ctx: RpcContext): Subscriptions {
  if (!ctx.subscriptions) throw new RpcError(ErrorCode.methodNotFound, 'notifications not supported: subscribe over WebSocket (ws://, same port)');
  return ctx.subscriptions;
}

/** Decoded by the handler: only a logs subscription takes an argument, its filter. */
const subscriptionOptions = (value: unknown): unknown => value;

export const filterMethods = [
  defineMethod({ name: 'chain_newFilter', aliases: ['eth_newFilter'] }, [param('filter', logFilter)], ({ filters }, query) =>
    encodeQuantity(filters.newLogFilter(query)),
  ),
  defineMethod({ name: 'chain_newBlockFilter', aliases: ['eth_newBlockFilter'] }, [], ({ filters }) => encodeQuantity(filters.newBlockFilter())),
  defineMethod({ name: 'chain_newPendingTransactionFilter', aliases: ['eth_newPendingTransactionFilter'] }, [], ({ filters }) =>
    encodeQuantity(filters.newPendingTransactionFilter()),
  ),
  defineMethod({ name: 'chain_getFilterChanges', aliases: ['eth_getFilterChanges'] }, [param('filterId', filterId)], ({ filters }, id) =>
    formatChanges(filters.changes(id)),
  ),
  defineMethod({ name: 'chain_getFilterLogs', aliases: ['eth_getFilterLogs'] }, [param('filterId', filterId)], ({ filters }, id) =>
    limited(() => filters.logs(id)),
  ),
  defineMethod({ name: 'chain_uninstallFilter', aliases: ['eth_uninstallFilter'] }, [param('filterId', filterId)], ({ filters }, id) => filters.uninstall(id)),
  defineMethod({ name: 'chain_getLogs', aliases: ['eth_getLogs'] }, [param('filter', logFilter)], ({ filters }, query) => limited(() => filters.query(query))),

  // Push notifications: over WebSocket and through the in-process provider's 'message' events.
  defineMethod(
    { name: 'chain_subscribe', aliases: ['eth_subscribe'] },
    [param('subscription', subscriptionKind), optionalParam('options', subscriptionOptions)],
    (ctx, kind, options) => {
      const subscriptions = subscriptionsOf(ctx);
      if (kind === 'logs') return subscriptions.subscribe(kind, logFilter(options ?? {}, '1 (options)'));
      if (options !== undefined) throw invalidParams(`invalid argument 1 (options): ${kind} takes no options`);
      return subscriptions.subscribe(kind);
    },
  ),
  defineMethod({ name: 'chain_unsubscribe', aliases: ['eth_unsubscribe'] }, [param('subscriptionId', quantity(256))], (ctx, id) =>
    subscriptionsOf(ctx).unsubscribe(encodeQuantity(id)),
  ),
];
