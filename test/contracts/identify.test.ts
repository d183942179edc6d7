import { expect } from 'chai';
import { Interface } from 'ethers';
import { type ChainSimProvider, createProvider, createServer } from '../../src/index.js';
import { type ChainReader, identifyAddress, labelOf } from '../../src/contracts/identify.js';
import { ContractRegistry } from '../../src/contracts/registry.js';
import { DEPLOYER, type Requester, compileProject, deploy, word } from '../helpers/artifacts.js';

function readerOf(provider: Requester): ChainReader {
  return {
    code: async (address) => Buffer.from(((await provider.request({ method: 'eth_getCode', params: [address, 'latest'] })) as string).slice(2), 'hex'),
    storage: async (address, slot) =>
      Buffer.from(
        ((await provider.request({ method: 'eth_getStorageAt', params: [address, `0x${Buffer.from(slot).toString('hex')}`, 'latest'] })) as string).slice(2),
        'hex',
      ),
  };
}

async function send(provider: Requester, to: string, data: string): Promise<{ logs: { data: string; topics: string[] }[] }> {
  const hash = await provider.request({ method: 'eth_sendTransaction', params: [{ from: DEPLOYER, to, data, gas: '0x989680' }] });
  return (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { logs: { data: string; topics: string[] }[] };
}

describe('artifacts: identifying deployed contracts by their code', function () {
  this.timeout(120_000);
  let run: ReturnType<typeof compileProject>;
  let provider: ChainSimProvider;
  let registry: ContractRegistry;
  let reader: ChainReader;
  const addresses: Record<string, string> = {};

  before(async () => {
    run = compileProject();
    provider = createProvider({ quiet: true, artifacts: false });
    registry = new ContractRegistry([]);
    registry.loadOutput({ input: run.input, output: run.output });
    reader = readerOf(provider);
    addresses.token = await deploy(provider, run, 'Token', word(1000));
    addresses.library = await deploy(provider, run, 'LinkedMath');
    addresses.vault = await deploy(provider, run, 'Vault', word(addresses.token), { LinkedMath: addresses.library });
    addresses.factory = await deploy(provider, run, 'Factory');
    addresses.proxy = await deploy(provider, run, 'Proxy', word(addresses.token));
  });
  after(() => provider.disconnect());

  const nameAt = async (address: string) => (await identifyAddress(registry, reader, address))?.contract?.name;

  it('names a contract whatever its immutables hold (Token: cap, owner)', async () => {
    expect(await nameAt(addresses.token!)).to.equal('Token');
    const code = await reader.code(addresses.token!);
    expect(registry.identify(code)).to.include({ exact: true });
  });

  it('names a contract linked to a library, and the library itself', async () => {
    expect(await nameAt(addresses.vault!)).to.equal('Vault');
    expect(await nameAt(addresses.library!)).to.equal('LinkedMath');
  });

  it('names contracts that contracts deployed (new Token in Factory)', async () => {
    const factory = new Interface(Object.values(run.output.contracts).find((c) => c.Factory)!.Factory!.abi as never);
    const receipt = await send(provider, addresses.factory!, factory.encodeFunctionData('create', [77]));
    const created = factory.parseLog(receipt.logs.find((log) => log.topics[0] === factory.getEvent('Created')!.topicHash)!)!.args[0] as string;
    expect(await nameAt(created)).to.equal('Token');
  });

  it('names the implementation behind an EIP-1167 clone and an EIP-1967 proxy', async () => {
    const factory = new Interface(Object.values(run.output.contracts).find((c) => c.Factory)!.Factory!.abi as never);
    const data = factory.encodeFunctionData('clone', [addresses.token]);
    const clone = factory.decodeFunctionResult(
      'clone',
      (await provider.request({ method: 'eth_call', params: [{ from: DEPLOYER, to: addresses.factory, data }] })) as string,
    )[0];
    await send(provider, addresses.factory!, data);
    const cloned = (await identifyAddress(registry, reader, clone))!;
    expect(cloned.contract).to.equal(undefined);
    expect(cloned.proxy).to.include({ standard: 'EIP-1167', implementation: addresses.token!.toLowerCase() });
    expect(cloned.proxy!.target!.name).to.equal('Token');
    expect(labelOf(cloned)).to.equal('clone (EIP-1167 proxy to Token)');
    const proxied = (await identifyAddress(registry, reader, addresses.proxy!))!;
    expect(proxied.contract!.name).to.equal('Proxy');
    expect(proxied.proxy).to.include({ standard: 'EIP-1967', implementation: addresses.token!.toLowerCase() });
    expect(labelOf(proxied)).to.equal('Proxy (EIP-1967 proxy to Token)');
    // A contract that is no proxy has no proxy part.
    expect((await identifyAddress(registry, reader, addresses.token!))!.proxy).to.equal(undefined);
  });

  it('names code whose metadata differs (the same source with another comment): a match of the code, not of the build', async () => {
    const edited = compileProject('contracts/', false, '\n// edited: other metadata, the same code\n');
    const other = new ContractRegistry([]);
    other.loadOutput({ input: edited.input, output: edited.output });
    const code = await reader.code(addresses.token!);
    expect(edited.output.contracts['contracts/Token.sol']!.Token!.evm.deployedBytecode.object).to.not.equal(
      run.output.contracts['contracts/Token.sol']!.Token!.evm.deployedBytecode.object,
    );
    expect(other.identify(code)).to.deep.include({ exact: false });
    expect(other.identify(code)!.contract.name).to.equal('Token');
  });

  it('knows nothing of code the project does not have, nor of accounts without code', async () => {
    await provider.request({ method: 'chain_setCode', params: ['0x00000000000000000000000000000000000000aa', '0x6001600055'] });
    expect(await identifyAddress(registry, reader, '0x00000000000000000000000000000000000000aa')).to.deep.equal({
      address: '0x00000000000000000000000000000000000000aa',
      contract: undefined,
    });
    expect(await identifyAddress(registry, reader, '0x00000000000000000000000000000000000000bb')).to.equal(undefined);
  });

  it('names a forked chain’s contracts by their code', async () => {
    const server = await createServer({ quiet: true, artifacts: false });
    const { url } = await server.listen(0, '127.0.0.1');
    let fork: ChainSimProvider | undefined;
    try {
      // The upstream is the server's chain: deploy there, then fork it.
      const remote: Requester = {
        request: async ({ method, params }) => {
          const response = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
          });
          const body = (await response.json()) as { result?: unknown; error?: { message: string } };
          if (body.error) throw new Error(body.error.message);
          return body.result;
        },
      };
      const token = await deploy(remote, run, 'Token', word(5));
      fork = createProvider({ quiet: true, artifacts: false, fork: url });
      expect((await identifyAddress(registry, readerOf(fork), token))?.contract?.name).to.equal('Token');
    } finally {
      await fork?.disconnect();
      await server.close();
    }
  });
});
