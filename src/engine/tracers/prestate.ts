/**
 * go-ethereum's prestateTracer: the accounts (and storage slots) a transaction touched, as
 * they were before it ran; with diffMode, only what changed, before and after. Accounts are
 * looked up when first touched, before the opcode that touches them runs (step events wait
 * for the read), as go-ethereum's OnOpcode does; the sender, the recipient and the coinbase
 * before the transaction buys its gas.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { InterpreterStep } from '@ethereumjs/evm';
import {
  type Address,
  type EOACode7702AuthorizationListBytesItem,
  KECCAK256_NULL,
  eoaCode7702RecoverAuthority,
  bigIntToBytes,
  bytesToBigInt,
  createAddressFromBigInt,
  createContractAddress,
  createContractAddress2,
  equalsBytes,
  setLengthLeft,
} from '@ethereumjs/util';
import type { StateManagerInterface } from '@ethereumjs/common';
import { type ExecutionTracer, type TraceBudget, type TraceEnv, listen } from './tracing.js';

export interface PrestateOptions {
  readonly diffMode: boolean;
  readonly disableCode: boolean;
  readonly disableStorage: boolean;
  readonly includeEmpty: boolean;
}

export interface PrestateAccount {
  balance?: bigint;
  /** Absent: no code, or disableCode (and in a post state: unchanged). */
  code?: Uint8Array;
  codeHash?: Uint8Array;
  /** 0 is left out of the answer. */
  nonce: bigint;
  /** Slot to value; absent with disableStorage. */
  storage?: Map<bigint, bigint>;
}

export interface Tracked extends PrestateAccount {
  readonly address: Address;
  /** It did not exist before (no nonce, code, storage or balance). */
  empty: boolean;
}

export class PrestateTracer implements ExecutionTracer {
  readonly pre = new Map<string, Tracked>();
  readonly post = new Map<string, PrestateAccount>();
  private readonly created = new Set<string>();
  readonly deleted = new Set<string>();
  private state: StateManagerInterface | undefined;

  constructor(
    private readonly options: PrestateOptions,
    readonly budget: TraceBudget,
  ) {}

  attach(env: TraceEnv): () => void {
    const { vm } = env;
    this.state = vm.stateManager;
    const beforeTx = (tx: TypedTransaction, done?: () => void): void => {
      this.start(tx, env.coinbase).then(
        () => done?.(),
        () => done?.(),
      );
    };
    const afterTx = (_result: unknown, done?: () => void): void => {
      this.end().then(
        () => done?.(),
        () => done?.(),
      );
    };
    vm.events.on('beforeTx', beforeTx);
    vm.events.on('afterTx', afterTx);
    const stopListening = listen(env, {
      step: (step, done) => {
        this.step(step, vm.common.isActivatedEIP(6780)).then(
          () => done?.(),
          () => done?.(),
        );
      },
      beforeMessage: () => {},
      afterMessage: () => {},
    });
    return () => {
      stopListening();
      vm.events.off('beforeTx', beforeTx);
      vm.events.off('afterTx', afterTx);
    };
  }

  private async start(tx: TypedTransaction, coinbase: Address): Promise<void> {
    const from = tx.getSenderAddress();
    let to = tx.to;
    if (!to) {
      to = createContractAddress(from, (await this.state!.getAccount(from))?.nonce ?? 0n);
      this.created.add(to.toString());
    }
    await this.lookupAccount(from);
    await this.lookupAccount(to);
    await this.lookupAccount(coinbase);
    // EIP-7702: the authorities, before their delegations are written.
    const list = (tx as { authorizationList?: EOACode7702AuthorizationListBytesItem[] }).authorizationList;
    for (const item of Array.isArray(list) ? list : []) {
      let authority: Address | undefined;
      try {
        authority = eoaCode7702RecoverAuthority(item);
      } catch {
        continue; // an invalid authorization is skipped, as the transaction skips it
      }
      await this.lookupAccount(authority);
    }
  }

  private async step(step: InterpreterStep, eip6780: boolean): Promise<void> {
    const op = step.opcode.name;
    const stack = step.stack;
    const top = (n: number): bigint => stack[stack.length - 1 - n]!;
    const caller = step.address;
    if ((op === 'SLOAD' || op === 'SSTORE') && stack.length >= 1) {
      await this.lookupStorage(caller, top(0));
    } else if (['EXTCODECOPY', 'EXTCODEHASH', 'EXTCODESIZE', 'BALANCE', 'SELFDESTRUCT'].includes(op) && stack.length >= 1) {
      await this.lookupAccount(addressOf(top(0)));
      if (op === 'SELFDESTRUCT' && (!eip6780 || this.created.has(caller.toString()))) this.deleted.add(caller.toString());
    } else if (['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL'].includes(op) && stack.length >= 5) {
      const target = addressOf(top(1));
      await this.lookupAccount(target);
      const delegate = delegationTarget(await this.state!.getCode(target));
      if (delegate) await this.lookupAccount(delegate);
    } else if (op === 'CREATE') {
      const address = createContractAddress(caller, (await this.state!.getAccount(caller))?.nonce ?? 0n);
      await this.lookupAccount(address);
      this.created.add(address.toString());
    } else if (op === 'CREATE2' && stack.length >= 4) {
      const offset = Number(top(1));
      const size = Number(top(2));
      if (offset + size > step.memory.length + 64 * 1024 * 1024) return; // the opcode fails on its memory cost
      const init = new Uint8Array(size);
      init.set(step.memory.subarray(offset, offset + size));
      const address = createContractAddress2(caller, setLengthLeft(bigIntToBytes(top(3)), 32), init);
      await this.lookupAccount(address);
      this.created.add(address.toString());
    }
  }

  private async lookupAccount(address: Address): Promise<void> {
    const key = address.toString();
    if (this.pre.has(key)) return;
    const account = await this.state!.getAccount(address);
    const code = account ? await this.state!.getCode(address) : new Uint8Array();
    const tracked: Tracked = {
      address,
      balance: account?.balance ?? 0n,
      nonce: account?.nonce ?? 0n,
      code: code.length > 0 && !this.options.disableCode ? code : undefined,
      codeHash: account && !equalsBytes(account.codeHash, KECCAK256_NULL) ? account.codeHash : undefined,
      storage: this.options.disableStorage ? undefined : new Map(),
      empty: false,
    };
    // go-ethereum's exists(): storage is still empty here, so nonce, code and balance decide.
    tracked.empty = tracked.nonce === 0n && code.length === 0 && tracked.balance === 0n;
    this.budget.take(200 + code.length);
    this.pre.set(key, tracked);
  }

  private async lookupStorage(address: Address, slot: bigint): Promise<void> {
    if (this.options.disableStorage) return;
    const account = this.pre.get(address.toString());
    if (!account?.storage || account.storage.has(slot)) return;
    account.storage.set(slot, bytesToBigInt(await this.state!.getStorage(address, setLengthLeft(bigIntToBytes(slot), 32))));
    this.budget.take(100);
  }

  /** After the transaction (fees paid): the post state in diffMode, and the empty accounts dropped. */
  private async end(): Promise<void> {
    if (this.options.diffMode) await this.diff();
    if (this.options.includeEmpty) return;
    for (const [key, account] of this.pre) if (account.empty) this.pre.delete(key);
  }

  private async diff(): Promise<void> {
    const state = this.state!;
    for (const [key, before] of this.pre) {
      // A destroyed account's state stays in pre and has no post.
      if (this.deleted.has(key)) continue;
      const after: PrestateAccount = { nonce: 0n, storage: new Map() };
      let modified = false;
      const account = await state.getAccount(before.address);
      const balance = account?.balance ?? 0n;
      const nonce = account?.nonce ?? 0n;
      const codeHash = account?.codeHash ?? KECCAK256_NULL;
      if (balance !== before.balance) (modified = true), (after.balance = balance);
      if (nonce !== before.nonce) (modified = true), (after.nonce = nonce);
      if (!equalsBytes(codeHash, before.codeHash ?? KECCAK256_NULL)) (modified = true), (after.codeHash = codeHash);
      if (!this.options.disableCode) {
        const code = account ? await state.getCode(before.address) : new Uint8Array();
        if (!equalsBytes(code, before.code ?? new Uint8Array())) (modified = true), (after.code = code);
      }
      if (before.storage) {
        for (const [slot, value] of before.storage) {
          if (value === 0n) before.storage.delete(slot);
          const now = bytesToBigInt(await state.getStorage(before.address, setLengthLeft(bigIntToBytes(slot), 32)));
          if (now === value) before.storage.delete(slot);
          else {
            modified = true;
            if (now !== 0n) after.storage!.set(slot, now);
          }
        }
      }
      if (modified) this.post.set(key, after);
      else this.pre.delete(key);
    }
  }
}

function addressOf(word: bigint): Address {
  return createAddressFromBigInt(word & ((1n << 160n) - 1n));
}

/** EIP-7702: code 0xef0100 ++ address delegates to that address. */
function delegationTarget(code: Uint8Array): Address | undefined {
  if (code.length !== 23 || code[0] !== 0xef || code[1] !== 0x01 || code[2] !== 0x00) return undefined;
  return createAddressFromBigInt(bytesToBigInt(code.subarray(3)));
}
