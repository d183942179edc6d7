/**
 * Engine errors. The engine knows nothing of JSON-RPC; each error carries a
 * `kind` that the RPC layer maps to a code. Messages follow go-ethereum's wording
 * so that clients that pattern-match on them (ethers, viem) behave as with geth.
 */
export type EngineErrorKind =
  | 'rejected' // understood but refused: nonce, funds, gas, unknown block, ... (-32000)
  | 'invalidInput' // a value that is well-formed but not acceptable (-32602)
  | 'unsupported' // a feature this configuration does not offer (-32000 too, kept apart for clarity)
  | 'upstream'; // a forked chain's upstream could not answer (-32000); its message names the upstream, method and key

export class EngineError extends Error {
  readonly kind: EngineErrorKind;
  constructor(kind: EngineErrorKind, message: string) {
    super(message);
    this.name = 'EngineError';
    this.kind = kind;
  }
}

/**
 * An error go-ethereum reports with a method-specific code (eth_simulateV1's -38010 to
 * -38026, -32015, -32602, -32603); the RPC layer passes the code through.
 */
export class CodedError extends EngineError {
  readonly code: number;
  constructor(code: number, message: string) {
    super('rejected', message);
    this.name = 'CodedError';
    this.code = code;
  }
}

export function rejected(message: string): EngineError {
  return new EngineError('rejected', message);
}

/** A gas limit below the transaction's intrinsic cost or its EIP-7623 floor: more gas would help (estimates search on). */
export class IntrinsicGasError extends EngineError {
  constructor(message = 'intrinsic gas too low') {
    super('rejected', message);
    this.name = 'IntrinsicGasError';
  }
}

/** A call or estimate whose execution reverted; `data` is the raw revert payload. */
export class RevertError extends Error {
  readonly data: Uint8Array;
  constructor(message: string, data: Uint8Array) {
    super(message);
    this.name = 'RevertError';
    this.data = data;
  }
}

/**
 * A transaction that automine mined and that failed, thrown to a sender that awaited the outcome
 * (SendOptions.awaitOutcome, Hardhat's node's `throwOnTransactionFailures`): the transaction stays
 * mined, the send answers this instead of the hash. `error` is the EVM's ('revert', 'out of gas', 'invalid opcode', ...).
 */
export class TransactionFailedError extends Error {
  readonly hashHex: string;
  readonly error: string;
  readonly data: Uint8Array;
  constructor(hashHex: string, error: string, data: Uint8Array) {
    super(`transaction ${hashHex} failed: ${error}`);
    this.name = 'TransactionFailedError';
    this.hashHex = hashHex;
    this.error = error;
    this.data = data;
  }
}
