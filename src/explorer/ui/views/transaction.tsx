/**
 * One transaction: status, gas, fees, value, its input and logs decoded with the project's
 * contracts where chain-sim knows them (raw otherwise), the call tree (debug_traceTransaction's
 * callTracer), and for a failure the reason and the Solidity stack trace. The reason is what
 * chain-sim's `decoded` error says for the same call run again at the block before (eth_call):
 * exact for a transaction alone in its block, as automine mines them.
 */
import type { Hex } from 'viem';
import { decodeInput, decodeLog } from '../abi.js';
import { ether, gwei, toBig, toHex, toNumber, when } from '../format.js';
import { AddressLink, BlockLink, Show, useLive, useLoad } from '../hooks.js';
import { type DecodedFailure, RpcError, rpc } from '../rpc.js';
import { abiOf, identify } from '../state.js';

interface FullTx {
  readonly hash: string;
  readonly from: string;
  readonly to: string | null;
  readonly value: string;
  readonly input: string;
  readonly nonce: string;
  readonly gas: string;
  readonly gasPrice?: string;
  readonly maxFeePerGas?: string;
  readonly maxPriorityFeePerGas?: string;
  readonly type: string;
  readonly blockNumber: string | null;
}

interface Receipt {
  readonly status: string;
  readonly gasUsed: string;
  readonly effectiveGasPrice: string;
  readonly contractAddress: string | null;
  readonly logs: ReadonlyArray<{ readonly address: string; readonly topics: readonly Hex[]; readonly data: Hex; readonly logIndex: string }>;
}

interface CallFrame {
  readonly type: string;
  readonly from: string;
  readonly to?: string;
  readonly value?: string;
  readonly gasUsed: string;
  readonly input: Hex;
  readonly error?: string;
  readonly revertReason?: string;
  readonly calls?: readonly CallFrame[];
}

async function explainFailure(tx: FullTx): Promise<DecodedFailure | string> {
  const block = toNumber(tx.blockNumber);
  const request = { from: tx.from, ...(tx.to ? { to: tx.to } : {}), data: tx.input, value: tx.value, gas: tx.gas };
  try {
    await rpc('eth_call', [request, toHex(Math.max(0, block - 1))]);
    return 'the call succeeds when run alone at the block before: the failure depended on a transaction before it in its block';
  } catch (error) {
    if (error instanceof RpcError) return error.decoded ?? error.message;
    throw error;
  }
}

function CallTree({ frame, names }: { frame: CallFrame; names: ReadonlyMap<string, string> }) {
  const to = frame.to?.toLowerCase();
  const name = to ? names.get(to) : undefined;
  const selector = frame.input.slice(0, 10);
  return (
    <li>
      <span class="tag">{frame.type}</span> <AddressLink address={frame.to} label={name} /> <span class="mono">{name ? '' : selector}</span>{' '}
      <span class="muted">gas {toNumber(frame.gasUsed).toLocaleString('en-US')}</span>
      {frame.value && toBig(frame.value) > 0n && <span> · {ether(toBig(frame.value))}</span>}
      {frame.error && <span class="error"> · {frame.revertReason ? `${frame.error}: ${frame.revertReason}` : frame.error}</span>}
      {frame.calls && frame.calls.length > 0 && (
        <ul>
          {frame.calls.map((call, i) => (
            <CallTree key={i} frame={call} names={names} />
          ))}
        </ul>
      )}
    </li>
  );
}

function collectAddresses(frame: CallFrame, into: Set<string>): Set<string> {
  if (frame.to) into.add(frame.to.toLowerCase());
  for (const call of frame.calls ?? []) collectAddresses(call, into);
  return into;
}

async function loadTransaction(hash: string) {
  const tx = await rpc<FullTx | null>('eth_getTransactionByHash', [hash]);
  if (!tx) throw new Error(`transaction ${hash} not found`);
  const receipt = tx.blockNumber ? await rpc<Receipt | null>('eth_getTransactionReceipt', [hash]) : null;
  const block = tx.blockNumber ? await rpc<{ timestamp: string } | null>('eth_getBlockByNumber', [tx.blockNumber, false]) : null;
  const target = tx.to ?? receipt?.contractAddress ?? null;
  const info = target ? await identify(target) : null;
  const input = tx.to ? decodeInput(abiOf(info), tx.input as Hex) : undefined;
  const logs = await Promise.all(
    (receipt?.logs ?? []).map(async (log) => {
      const source = await identify(log.address);
      return { log, decoded: decodeLog(abiOf(source), log.topics, log.data), contract: source?.contract?.name };
    }),
  );
  const trace = receipt ? await rpc<CallFrame>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]).catch(() => undefined) : undefined;
  const names = new Map<string, string>();
  for (const address of trace ? collectAddresses(trace, new Set()) : []) {
    const known = await identify(address);
    const name = known?.contract?.name ?? known?.proxy?.contract?.name;
    if (name) names.set(address, name);
  }
  const failure = receipt && receipt.status === '0x0' ? await explainFailure(tx) : undefined;
  return { tx, receipt, block, info, input, logs, trace, names, failure };
}

function Failure({ failure }: { failure: DecodedFailure | string }) {
  if (typeof failure === 'string') return <p class="error failure-reason">{failure}</p>;
  return (
    <div class="failure">
      <p class="error failure-reason">{failure.message}</p>
      {failure.stack && failure.stack.length > 0 && (
        <ol class="stack">
          {failure.stack.map((frame, i) => (
            <li key={i} class="mono">
              at {frame.contract ?? '<unknown>'}.{frame.function ?? '<unknown>'}
              {frame.file ? ` (${frame.file}${frame.line !== undefined ? `:${frame.line}` : ''})` : ''}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

export function TransactionView({ hash }: { hash: string }) {
  const live = useLive();
  const loaded = useLoad(() => loadTransaction(hash), [hash, live.head]);
  return (
    <Show loaded={loaded}>
      {({ tx, receipt, block, info, input, logs, trace, names, failure }) => {
        const status = !receipt ? 'pending' : receipt.status === '0x1' ? 'success' : 'failed';
        const price = receipt ? toBig(receipt.effectiveGasPrice) : toBig(tx.gasPrice ?? tx.maxFeePerGas);
        return (
          <section>
            <h2>Transaction</h2>
            <dl class="fields">
              <dt>hash</dt>
              <dd class="mono">{tx.hash}</dd>
              <dt>status</dt>
              <dd class={`status ${status}`}>{status}</dd>
              <dt>block</dt>
              <dd>
                {tx.blockNumber ? <BlockLink number={toNumber(tx.blockNumber)} /> : '—'} {block && <span class="muted">{when(block.timestamp)}</span>}
              </dd>
              <dt>from</dt>
              <dd>
                <AddressLink address={tx.from} label={tx.from} /> <span class="muted">nonce {toNumber(tx.nonce)}</span>
              </dd>
              <dt>to</dt>
              <dd>
                {tx.to ? (
                  <AddressLink address={tx.to} label={info?.contract ? `${info.contract.name} ${tx.to}` : tx.to} />
                ) : (
                  <>
                    create <AddressLink address={receipt?.contractAddress} label={receipt?.contractAddress ?? undefined} />{' '}
                    {info?.contract && <span class="muted">{info.contract.name}</span>}
                  </>
                )}
              </dd>
              <dt>value</dt>
              <dd>{ether(toBig(tx.value))}</dd>
              <dt>gas</dt>
              <dd>
                {receipt ? `${toNumber(receipt.gasUsed).toLocaleString('en-US')} used of ` : ''}
                {toNumber(tx.gas).toLocaleString('en-US')} limit
              </dd>
              <dt>gas price</dt>
              <dd>
                {gwei(price)}
                {tx.maxFeePerGas && (
                  <span class="muted">
                    {' '}
                    (max {gwei(toBig(tx.maxFeePerGas))}, tip {gwei(toBig(tx.maxPriorityFeePerGas))})
                  </span>
                )}
              </dd>
              {receipt && (
                <>
                  <dt>fee</dt>
                  <dd>{ether(toBig(receipt.gasUsed) * price)}</dd>
                </>
              )}
              <dt>type</dt>
              <dd>{toNumber(tx.type)}</dd>
            </dl>
            {failure && (
              <>
                <h3>Failure</h3>
                <Failure failure={failure} />
              </>
            )}
            <h3>Input</h3>
            {input ? (
              <div class="decoded-input">
                <p class="mono">
                  {info?.contract?.name ?? info?.proxy?.contract?.name}.{input.name}
                </p>
                <table>
                  <tbody>
                    {input.args.map((arg) => (
                      <tr key={arg.name}>
                        <td>{arg.name}</td>
                        <td class="muted">{arg.type}</td>
                        <td class="mono">{arg.value}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <pre class="raw">{tx.input === '0x' ? '(none)' : tx.input}</pre>
            )}
            <h3>Logs ({logs.length})</h3>
            {logs.map(({ log, decoded, contract }) => (
              <div class="log" key={log.logIndex}>
                <p>
                  #{toNumber(log.logIndex)} <AddressLink address={log.address} label={contract ?? undefined} />{' '}
                  {decoded ? (
                    <span class="mono">
                      {decoded.name}({decoded.args.map((a) => `${a.name}: ${a.value}`).join(', ')})
                    </span>
                  ) : (
                    <span class="muted">not decoded</span>
                  )}
                </p>
                {!decoded && (
                  <pre class="raw">
                    {log.topics.join('\n')}
                    {'\n'}
                    {log.data}
                  </pre>
                )}
              </div>
            ))}
            {trace && (
              <>
                <h3>Call tree</h3>
                <ul class="calltree">
                  <CallTree frame={trace} names={names} />
                </ul>
              </>
            )}
          </section>
        );
      }}
    </Show>
  );
}
