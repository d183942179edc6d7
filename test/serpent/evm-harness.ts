// Real-EVM harness for the Serpent behaviour tests: deploys creation code
// with @ethereumjs/evm, calls functions with ABI-encoded arguments (encoded
// by ethers' AbiCoder, an independent implementation) and reads state.

import { createEVM, type EVM, type Log } from '@ethereumjs/evm';
import { Address, bigIntToBytes, bytesToBigInt, createAccount, createAddressFromBigInt, setLengthLeft } from '@ethereumjs/util';
import { AbiCoder } from 'ethers';
import { compileSerpent, type SerpentFunction, type SerpentOptions, type SerpentOutput } from '../../src/serpent/index.js';

export const coder = AbiCoder.defaultAbiCoder();

export const ALICE = createAddressFromBigInt(0xa11ce00000000000000000000000000000a11cen);
export const BOB = createAddressFromBigInt(0xb0b000000000000000000000000000000000b0bn);
export const CAROL = createAddressFromBigInt(0xca20100000000000000000000000000000ca201n);

export interface CallResult {
  readonly ok: boolean;
  readonly returnValue: Uint8Array;
  readonly logs: readonly Log[];
  readonly gasUsed: bigint;
}

export interface CallOptions {
  readonly caller?: Address;
  readonly value?: bigint;
  readonly timestamp?: bigint;
  readonly gasLimit?: bigint;
}

function blockAt(timestamp: bigint) {
  return {
    header: {
      number: 100n,
      coinbase: createAddressFromBigInt(0xc0ffeen),
      timestamp,
      difficulty: 0n,
      prevRandao: new Uint8Array(32),
      gasLimit: 30_000_000n,
      baseFeePerGas: undefined,
      getBlobGasPrice: (): bigint | undefined => undefined,
    },
  };
}

export class Chain {
  private constructor(readonly evm: EVM) {}

  static async create(): Promise<Chain> {
    const chain = new Chain(await createEVM());
    for (const a of [ALICE, BOB, CAROL]) await chain.fund(a, 10n ** 21n);
    return chain;
  }

  async fund(addr: Address, wei: bigint): Promise<void> {
    await this.evm.stateManager.putAccount(addr, createAccount({ balance: wei, nonce: 0n }));
  }

  async balance(addr: Address): Promise<bigint> {
    return (await this.evm.stateManager.getAccount(addr))?.balance ?? 0n;
  }

  async storage(addr: Address, slot: bigint): Promise<bigint> {
    const v = await this.evm.stateManager.getStorage(addr, setLengthLeft(bigIntToBytes(slot), 32));
    return v.length === 0 ? 0n : bytesToBigInt(v);
  }

  /** Runs creation code; returns the new contract's address. */
  async deploy(code: Uint8Array, opts: CallOptions = {}): Promise<Address> {
    const r = await this.evm.runCall({
      data: code,
      caller: opts.caller ?? ALICE,
      value: opts.value ?? 0n,
      gasLimit: opts.gasLimit ?? 10_000_000n,
      block: blockAt(opts.timestamp ?? 1_000n),
    });
    if (r.execResult.exceptionError) throw new Error(`deployment failed: ${r.execResult.exceptionError.error}`);
    if (!r.createdAddress) throw new Error('deployment created no contract');
    return r.createdAddress;
  }

  async call(to: Address, data: Uint8Array, opts: CallOptions = {}): Promise<CallResult> {
    const r = await this.evm.runCall({
      to,
      data,
      caller: opts.caller ?? ALICE,
      origin: opts.caller ?? ALICE,
      value: opts.value ?? 0n,
      gasLimit: opts.gasLimit ?? 10_000_000n,
      block: blockAt(opts.timestamp ?? 1_000n),
    });
    return {
      ok: r.execResult.exceptionError === undefined,
      returnValue: r.execResult.returnValue,
      logs: r.execResult.logs ?? [],
      gasUsed: r.execResult.executionGasUsed,
    };
  }
}

/** A deployed Serpent contract with ABI-aware helpers. */
export class Contract {
  constructor(
    readonly chain: Chain,
    readonly address: Address,
    readonly compiled: SerpentOutput,
  ) {}

  static async deploy(chain: Chain, source: string, opts: CallOptions & { options?: SerpentOptions } = {}): Promise<Contract> {
    const compiled = compileSerpent(source, opts.options);
    return new Contract(chain, await chain.deploy(compiled.bytecode, opts), compiled);
  }

  fn(name: string): SerpentFunction {
    const f = this.compiled.functions.find((x) => x.name === name);
    if (!f) throw new Error(`no function ${name}`);
    return f;
  }

  encode(name: string, args: readonly unknown[]): Uint8Array {
    const f = this.fn(name);
    const body = coder.encode(f.inputs.map(abiType), args);
    return Buffer.from(f.selector.slice(2) + body.slice(2), 'hex');
  }

  async send(name: string, args: readonly unknown[] = [], opts: CallOptions = {}): Promise<CallResult> {
    return this.chain.call(this.address, this.encode(name, args), opts);
  }

  /** Calls and decodes a single return value of `type` (default int256). */
  async get(name: string, args: readonly unknown[] = [], type = 'int256', opts: CallOptions = {}): Promise<unknown> {
    const r = await this.send(name, args, opts);
    if (!r.ok) throw new Error(`call to ${name} failed`);
    return coder.decode([abiType(type)], r.returnValue)[0];
  }

  async int(name: string, args: readonly unknown[] = [], opts: CallOptions = {}): Promise<bigint> {
    return (await this.get(name, args, 'int256', opts)) as bigint;
  }

  async ints(name: string, args: readonly unknown[] = [], opts: CallOptions = {}): Promise<bigint[]> {
    return [...((await this.get(name, args, 'int256[]', opts)) as bigint[])];
  }
}

export function abiType(t: string): string {
  return t === 'arr' ? 'int256[]' : t === 'str' ? 'bytes' : t;
}

export function word(bytes: Uint8Array, index = 0): bigint {
  return bytesToBigInt(bytes.subarray(index * 32, index * 32 + 32));
}

export function addressBig(a: Address): bigint {
  return bytesToBigInt(a.bytes);
}

export { Address };
