/**
 * Anvil's anvil_impersonateSignature: a registered 65-byte signature (r, s, v) makes the
 * ECRECOVER precompile answer the registered address, whatever the message hash, so contracts
 * that check signatures (permits, multisigs) accept an impersonated signer. As Anvil's
 * CheatEcrecover (foundry crates/anvil/src/eth/backend/cheats.rs): the input is read padded to
 * 128 bytes, v is its 64th byte, the gas is ECRECOVER's; anything else runs the real precompile.
 * The precompile is installed as a custom precompile at 0x01 in the EVM options, which every
 * copy of the VM (calls, traces, the pending block) is built with, and reads the chain's registry.
 */
import { type CustomPrecompile, type PrecompileFunc, type PrecompileInput, getActivePrecompiles } from '@ethereumjs/evm';
import { type Address, bytesToHex, setLengthLeft, setLengthRight } from '@ethereumjs/util';

const ECRECOVER = '0000000000000000000000000000000000000001';
export const SIGNATURE_LENGTH = 65;

export class SignatureOverrides {
  private readonly bySignature = new Map<string, Address>();

  add(signature: Uint8Array, address: Address): void {
    if (signature.length !== SIGNATURE_LENGTH) throw new Error(`a signature is ${SIGNATURE_LENGTH} bytes (r, s, v)`);
    this.bySignature.set(bytesToHex(signature), address);
  }

  get size(): number {
    return this.bySignature.size;
  }

  /** The address registered for the precompile's input, if any. */
  lookup(input: Uint8Array): Address | undefined {
    if (this.bySignature.size === 0) return undefined;
    const padded = setLengthRight(input, 128, { allowTruncate: true });
    const signature = new Uint8Array(SIGNATURE_LENGTH);
    signature.set(padded.subarray(64, 128), 0);
    signature[64] = padded[63]!;
    return this.bySignature.get(bytesToHex(signature));
  }

  /** ECRECOVER with the overrides first, as a custom precompile for the EVM options. */
  precompile(): CustomPrecompile {
    let real: PrecompileFunc | undefined;
    const ecrecover: PrecompileFunc = (opts: PrecompileInput) => {
      real ??= getActivePrecompiles(opts.common).get(ECRECOVER)!;
      const gas = opts.common.param('ecRecoverGas');
      const address = opts.gasLimit >= gas ? this.lookup(opts.data) : undefined;
      if (!address) return real(opts);
      return { executionGasUsed: gas, returnValue: setLengthLeft(address.bytes, 32) };
    };
    return { address: `0x${ECRECOVER}`, function: ecrecover };
  }
}
