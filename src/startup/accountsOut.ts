/**
 * --accounts-out FILE: the node's accounts, their keys and the chain as JSON, for other CI
 * steps to read (Anvil's --config-out; its field names, plus chain-sim's own).
 */
import { bytesToHex } from '@ethereumjs/util';
import type { Chain } from '../engine/index.js';
import type { ResolvedOptions } from '../options.js';
import { writeFileAtomically } from '../persistence/atomicFile.js';

export async function writeAccountsFile(path: string, chain: Chain, options: ResolvedOptions): Promise<void> {
  const accounts = chain.accounts.list();
  const balances = await Promise.all(accounts.map((address) => chain.getBalance(address, { number: 0n })));
  const body = {
    available_accounts: accounts.map((a) => a.toString()),
    private_keys: accounts.map((a) => bytesToHex(chain.accounts.privateKeyOf(a)!)),
    wallet: { mnemonic: options.mnemonic, derivation_path: `${options.derivationPath}/` },
    chain_id: Number(chain.chainId),
    base_fee: String(chain.head.block.header.baseFeePerGas ?? 0n),
    // What eth_gasPrice answers at start (Anvil writes its own suggestion here too).
    gas_price: String(chain.gasPrice ?? (chain.nextBaseFee() ?? 0n) + chain.suggestedTip),
    gas_limit: String(chain.blockGasLimit),
    genesis_timestamp: String(chain.blocks.byNumber(0n)?.block.header.timestamp ?? 0n),
    accounts: accounts.map((a, i) => ({ address: a.toString(), privateKey: bytesToHex(chain.accounts.privateKeyOf(a)!), balance: String(balances[i]) })),
  };
  // Readable by its owner only: it holds private keys.
  await writeFileAtomically(path, (handle) => handle.writeFile(`${JSON.stringify(body, null, 2)}\n`), 0o600);
}
