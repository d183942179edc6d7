/**
 * The engine's public surface: everything outside src/engine/ imports from here, never from a
 * module inside it (test/architecture/imports.test.ts enforces it), as @ethereumjs/vm exports
 * from its index. What is not listed here is the engine's own business.
 */
export { addressOfKey, deriveAccounts } from './accounts/accounts.js';
export { deriveChild, derivePath, mnemonicToSeed } from './accounts/hdKeys.js';
export { curve } from './accounts/secp256k1.js';
export { personalMessageDigest, signDigest } from './accounts/signing.js';
export {
  type BlockRecord,
  type ChainSegment,
  type DeployedContract,
  type DeployedContractsPage,
  type LogRecord,
  minedBlock,
  type MinedBlock,
  type ReceiptRecord,
  type TransactionLocation,
} from './blocks/blocks.js';
export { exportBlocks } from './blocks/chainExport.js';
export { CREATE2_DEPLOYER_ADDRESS, create2DeployerAccount } from './blocks/create2Deployer.js';
export { ReservedBlocks, reserveEmptyBlocks } from './blocks/emptyRanges.js';
export type { ForkPoint } from './blocks/forkStart.js';
export type { GenesisHeader } from './blocks/genesis.js';
export type { EncodedBlock, ImportSummary } from './blocks/importer.js';
export { encodeReceiptRecord } from './blocks/rawData.js';
export type { RemoteHistory } from './blocks/remoteHistory.js';
export { BlockGoneError, type BlockRef, type BlockTag, Chain, type EngineOptions, type SendOptions } from './chain.js';
export { effectiveGasPrice } from './execution/blockBuilder.js';
export { CONSOLE_ADDRESS, formatConsoleCall } from './execution/consoleLog.js';
export { type DeploymentRecord, deploymentsFromReceipts } from './execution/deployments.js';
export type { CallRequest } from './execution/execution.js';
export { revertReason } from './execution/revert.js';
export type { SimulatedBlock, SimulatedBlockSpec, SimulatedCall, SimulateOptions } from './execution/simulate.js';
export type { SimLog } from './execution/simulateLogs.js';
export type { TestingBlockRequest } from './execution/testingBlock.js';
export { type FilterChanges, FilterManager, type TakenChanges } from './logs/filters.js';
export { type FoundLog, type LogCriteria, logPosition, type LogPosition, type LogQuery, type RangeBound, TooManyLogsError } from './logs/logQuery.js';
export { MAX_TIMESTAMP, type WallClock } from './mining/clock.js';
export type { ReorgItem } from './mining/reorg.js';
export type { PowSealer } from './pow/sealer.js';
export { startPow } from './pow/start.js';
export { forkConfig, type ForkRules, TIME_FORKS } from './rules/forkConfig.js';
export { type BlobParams, type ForkActivation, forkAt, type ForkSchedule } from './rules/forkSchedule.js';
export { createChainCommon, HARDFORK_NAMES, isPostMerge, newestLiveHardfork, PRELOADED_PARAMS } from './rules/hardforks.js';
export type { ForkOverlay, ForkOverlayLookup } from './state/forkOverlay.js';
export type { RemoteAccount, RemoteState } from './state/forkState.js';
export type { AccountOverride, BlockOverrides, CallOverrides, StateOverride } from './state/overrides.js';
export type { ChainSnapshot, SnapshotSummary } from './state/snapshots.js';
export type { AccountState, Alloc } from './state/stateDump.js';
export { type CollectedAccount, collectPiece, piecesOf, type StatePiece, type StateReading, StateReadingLost } from './state/stateReading.js';
export type { BlockToTrace } from './tracers/blockTrace.js';
export { flattenCalls, MuxTracer, NoopTracer, selectorCounts } from './tracers/callTree.js';
export { type PrestateAccount, PrestateTracer } from './tracers/prestate.js';
export type { StructLogStore } from './tracers/structLogStore.js';
export { bothTracers, type FrameSteps, StepRecorder } from './tracers/steps.js';
export {
  type CallFrame,
  type CallLog,
  CallTracer,
  type ExecutionTracer,
  type StructLog,
  StructLogTracer,
  TraceBudget,
  type TracedRun,
  type TraceEnv,
  traceTooLarge,
} from './tracers/tracing.js';
export { type VmFrame, type VmOp, VmTracer } from './tracers/vmTrace.js';
export { type AuthorizationRequest, authorizationTuple } from './transactions/authorizations.js';
export type { PooledTransaction } from './transactions/txpool.js';
export { decodeRawTransaction, maxFeePerGas } from './transactions/validation.js';
export { clip, clipLongRuns } from './util/clip.js';
export { CodedError, EngineError, type EngineErrorKind, rejected, RevertError, TransactionFailedError } from './util/errors.js';
export { toHex } from './util/hex.js';
export { keccak256 } from './util/keccak256.js';
export { pace } from './util/pace.js';
