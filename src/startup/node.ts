/**
 * One running simulator: the engine plus its JSON-RPC dispatcher. Both the
 * provider and the HTTP server sit on top of a node.
 */
import { VERSION } from '../version.js';
import {
  addressOfKey,
  type Alloc,
  Chain,
  CREATE2_DEPLOYER_ADDRESS,
  create2DeployerAccount,
  deriveAccounts,
  type EngineOptions,
  FilterManager,
  startPow,
} from '../engine/index.js';
import type { ChainSimOptions, ResolvedOptions } from '../options.js';
import { importChainFile } from './chainFile.js';
import { GenesisFileError } from '../genesis/gethGenesis.js';
import { StateSaver, restoreState } from '../persistence/persistence.js';
import { mergeStartupSources } from './sources.js';
import { Dispatcher } from '../rpc/dispatch.js';
import { buildMethodTable } from '../rpc/table.js';
import { ForkController } from '../fork/controller.js';
import { withCompatForms } from '../rpc/compatForms.js';
import { withContractFailures } from '../rpc/contractFailures.js';
import { type RulesChoice, rulesFor } from '../rpc/clientRules.js';
import { applyStartupSettings, configuredMining } from './settings.js';
import { printTraces } from './printTraces.js';
import { writeAccountsFile } from './accountsOut.js';
import { startupRoots } from '../contracts/artifactFiles.js';
import { ContractRegistry } from '../contracts/registry.js';
import { attributedLine } from '../contracts/consoleSource.js';

/**
 * Which rules each client gets (rpc/clientRules.ts): Ganache's for every client under
 * chain-sim/ganache; Hardhat's, or none, for every client with --hardhat-node or
 * --no-hardhat-node (a proxy that drops User-Agent, a Hardhat run that must not get them);
 * otherwise each client its own tool's.
 */
function rulesChoiceOf(options: ResolvedOptions): RulesChoice {
  if (options.compat === 'ganache') return 'ganache';
  if (options.hardhatNode === 'auto') return 'per-client';
  return options.hardhatNode ? 'hardhat' : 'plain';
}

export interface SimNode {
  readonly options: ResolvedOptions;
  readonly chain: Chain;
  readonly filters: FilterManager;
  /** Stop background work (interval mining, filter sweeps) so the process can exit. */
  close(): void;
  readonly dispatcher: Dispatcher;
  /** With a state file: saves it (the server and the provider do on close). */
  readonly stateSaver: StateSaver | undefined;
  /** The fork (fork/controller.ts): its session is undefined while the chain is local. */
  readonly fork: ForkController;
  /** The project's contracts (--artifacts, chain_loadArtifacts), read when first needed. */
  readonly contracts: ContractRegistry;
  /** Whether failures explained with the contracts are printed (the HTTP server turns it on). */
  readonly failureLog: { enabled: boolean };
}

export async function startNode(input: ChainSimOptions | ResolvedOptions): Promise<SimNode> {
  const { options, saved, fixtures, genesis, forkSession, fileAlloc, genesisTimestamp } = await mergeStartupSources(input);
  // Only the folders are listed now (a path given that holds no compiler output is refused here); files are read when needed.
  const contracts = new ContractRegistry(startupRoots(options.artifacts), (message) => console.error(`chain-sim: ${message}`));
  const keyed = options.accountKeys.map(({ privateKey }) => ({ address: addressOfKey(privateKey), privateKey }));
  const accounts = [...deriveAccounts(options.mnemonic, options.accounts, options.derivationPath), ...keyed];
  // Keys given with a balance get it through the genesis alloc, which is written after the prefunded accounts.
  const keyedAlloc: Alloc = new Map(
    options.accountKeys.flatMap(({ balance }, i) =>
      balance === undefined ? [] : [[keyed[i]!.address.toString(), { balance, nonce: 0n, code: new Uint8Array(), storage: new Map() }] as const],
    ),
  );
  // Anvil's CREATE2 deployer goes first, so fixtures and keyed accounts can replace it. A genesis file's state stays exactly
  // as written (its state root must be the file's); a fork does not use this alloc, but a reset to a local chain does (as Anvil).
  const predeploys: Alloc = genesis || options.noCreate2Deployer ? new Map() : new Map([[CREATE2_DEPLOYER_ADDRESS, create2DeployerAccount()]]);
  const chain = await createChain(
    {
      chainId: options.chainId,
      hardfork: options.hardfork,
      accounts,
      balance: options.balanceWei,
      gasLimit: options.gasLimit,
      baseFee: options.baseFee,
      coinbase: options.coinbase,
      order: options.order,
      wallClock: options.wallClock,
      mining: options.mining,
      miningMode: configuredMining(options),
      genesisNumber: options.genesisNumber,
      genesisTimestamp,
      genesisAlloc: genesisAllocOf(predeploys, fileAlloc, keyedAlloc),
      genesis: genesis && { schedule: genesis.schedule, header: genesis.header },
      fork: forkSession?.point,
      codeSizeLimit: options.codeSizeLimit,
      consoleAddresses: options.consoleAddresses,
    },
    options.genesis,
  );
  const fork = new ForkController(chain, forkSession, options.forkDefaults);
  // Interval mining has no caller to reject: its failure (a bug) is logged, not thrown as an unhandled 'error' event.
  chain.on('error', (error) => console.error('chain-sim: internal error in a background task (mining, console.log):', error));
  // Solidity's console.log, printed as Hardhat, Ganache and Anvil print it.
  // With artifacts, each line says which contract printed it (unless asked not to, as Hardhat prints them).
  if (!options.noConsoleLog) {
    chain.on('consoleLog', (line, source) =>
      options.logger(options.consoleContractNames ? attributedLine(contracts, line, source.code, source.creation) : line),
    );
  }
  for (const privateKey of fixtures?.privateKeys ?? []) await chain.addOwnedAccount({ address: addressOfKey(privateKey), privateKey });
  await applyStartupSettings(chain, options, saved !== undefined);
  if (saved) await restoreState(chain, saved, options.stateFile!);
  if (options.importFile !== undefined) {
    const { imported, transactions } = await importChainFile(chain, options.importFile);
    options.logger(`Imported ${imported} blocks (${transactions} transactions) from ${options.importFile}`);
  }
  const stateSaver =
    options.stateFile === undefined
      ? undefined
      : new StateSaver(
          chain,
          options.stateFile,
          options.stateInterval,
          (error) => console.error(`chain-sim: ${error instanceof Error ? error.message : String(error)}`),
          () => fork.session,
        );
  const pow = options.mining === 'pow' ? startPow(chain, options) : undefined;
  await chain.startConfiguredMining();
  const stopTraces = options.printTraces ? printTraces(chain, options.logger, contracts) : undefined;
  if (options.accountsOut !== undefined) await writeAccountsFile(options.accountsOut, chain, options);
  const filters = new FilterManager(chain, {
    timeoutMs: options.filterTimeout * 1000,
    maxLogs: options.maxLogs,
    wallClock: options.wallClock,
  });
  const requestLog = { enabled: options.verbose };
  const failureLog = { enabled: false };
  const clientRules = rulesChoiceOf(options);
  // Clients that do not say who they are (the in-process provider among them) get the rules of none.
  const rules = rulesFor(clientRules, undefined);
  const dispatcher = new Dispatcher(
    withContractFailures(withCompatForms(buildMethodTable(), options)),
    {
      chain,
      filters,
      rules,
      version: VERSION,
      pow,
      requestLog,
      dialect: { current: 'hardhat' },
      fork,
      networkId: options.networkId,
      contracts,
      // Explained failures are printed by a node behind the HTTP server, as Hardhat's node prints them; an
      // in-process provider's caller gets them in the error it throws (Hardhat's in-process network prints none).
      print: (line) => {
        if (failureLog.enabled) options.logger(line);
      },
    },
    {
      maxBatchSize: options.maxBatchSize,
      clientRules,
      onInternalError: (error, method) => {
        // A bug: the stack stays on the server side, the client gets -32603.
        console.error(`chain-sim: internal error in ${method}:`, error);
      },
      onCall: (method, ms, error) => {
        if (requestLog.enabled) options.logger(`${method} ${ms.toFixed(1)}ms${error ? ` error ${error.code}: ${error.message}` : ''}`);
      },
    },
  );
  return {
    options,
    chain,
    filters,
    dispatcher,
    stateSaver,
    fork,
    contracts,
    failureLog,
    close: () => {
      fork.close();
      stateSaver?.stop();
      stopTraces?.();
      chain.close();
      filters.close();
      pow?.close();
    },
  };
}

/** A chain that a genesis file cannot build (e.g. a header field its forks rule out) is that file's error. */
async function createChain(engineOptions: EngineOptions, genesisPath: string | undefined): Promise<Chain> {
  try {
    return await Chain.create(engineOptions);
  } catch (error) {
    if (genesisPath === undefined) throw error;
    throw new GenesisFileError(genesisPath, error instanceof Error ? error.message : String(error));
  }
}

/** The accounts written into a local genesis state, later ones winning; undefined when there are none. */
function genesisAllocOf(...allocs: (Alloc | undefined)[]): Alloc | undefined {
  const merged = new Map(allocs.flatMap((alloc) => [...(alloc ?? [])]));
  return merged.size === 0 ? undefined : merged;
}
