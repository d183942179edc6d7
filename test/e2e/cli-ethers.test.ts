import { expect } from 'chai';
import { BrowserProvider, type Contract, ContractFactory, JsonRpcProvider, NonceManager, Wallet, getAddress, parseEther } from 'ethers';
import { createProvider } from '../../src/index.js';
import { ADDRESSES, KEYS, artifact } from '../helpers/chain.js';
import { type RunningCli, runCli, startCli } from '../helpers/cli.js';

describe('CLI end to end with ethers v6', function () {
  this.timeout(60_000);
  let cli: RunningCli;
  let provider: JsonRpcProvider;

  before(async () => {
    cli = await startCli(['--port', '0', '--hardfork', 'prague']);
    provider = new JsonRpcProvider(cli.url, undefined, { staticNetwork: true, pollingInterval: 50 });
  });

  after(async () => {
    provider.destroy();
    const code = await cli.stop('SIGINT');
    expect(code).to.equal(0); // graceful shutdown
  });

  it('prints a banner with version, chain id, hardfork, accounts, keys, mnemonic and URL', () => {
    const out = cli.output();
    expect(out).to.match(/chain-sim v\d+\.\d+\.\d+/);
    expect(out).to.include('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 (10000 ETH)');
    expect(out).to.include(KEYS[0]);
    expect(out).to.include('test test test test test test test test test test test junk');
    expect(out).to.match(/Chain id:\s+1337/);
    expect(out).to.match(/Hardfork:\s+prague/);
    expect(out).to.match(/Listening on http:\/\/127\.0\.0\.1:\d+/);
  });

  it('deploys an ERC-20, transfers, reads balances and a revert reason', async () => {
    const { abi, bytecode } = artifact('Token');
    // ethers caches eth_getTransactionCount for 250 ms; with instant mining a NonceManager keeps nonces right.
    const deployer = new NonceManager(new Wallet(KEYS[0], provider));
    const token = (await new ContractFactory(abi, bytecode, deployer).deploy('Token', 'TKN', parseEther('1000'))) as Contract;
    await token.waitForDeployment();
    const receipt = await (await token.getFunction('transfer')(ADDRESSES[1], parseEther('25'))).wait();
    expect(receipt!.status).to.equal(1);
    expect(await token.getFunction('balanceOf')(ADDRESSES[1])).to.equal(parseEther('25'));
    const stranger = new Wallet(KEYS[2], provider);
    try {
      await (token.connect(stranger) as Contract).getFunction('transfer')(ADDRESSES[0], 1n);
      expect.fail('transfer without balance should revert');
    } catch (error) {
      const e = error as { code: string; reason: string };
      expect(e.code).to.equal('CALL_EXCEPTION');
      expect(e.reason).to.equal('Token: insufficient balance');
    }
  });

  it("prints contracts' console.log lines on its output before answering", async () => {
    const { abi, bytecode } = artifact('ConsoleLogger');
    const deployer = new NonceManager(new Wallet(KEYS[2], provider));
    const logger = (await new ContractFactory(abi, bytecode, deployer).deploy()) as Contract;
    await logger.waitForDeployment();
    const who = getAddress(ADDRESSES[0]!);
    await (await logger.getFunction('logAll')(who)).wait();
    await cli.waitForOutput(`count is 0\nwho: ${who}\ntrue 7 mixed ${who}\n`);
  });

  it('sends from unlocked accounts with getSigner()', async () => {
    const signer = await provider.getSigner(ADDRESSES[3] ?? '0x90F79bf6EB2c4f870365E785982E1f101E93b906');
    const to = Wallet.createRandom().address;
    const tx = await signer.sendTransaction({ to, value: 12345n });
    await tx.wait();
    expect(await provider.getBalance(to)).to.equal(12345n);
  });

  it('signs messages and typed data with unlocked accounts', async () => {
    const signer = await provider.getSigner(0);
    const signature = await signer.signMessage('hello chain-sim');
    const { verifyMessage, verifyTypedData } = await import('ethers');
    expect(verifyMessage('hello chain-sim', signature)).to.equal(await signer.getAddress());
    const domain = { name: 'chain-sim', version: '1', chainId: 1337, verifyingContract: '0x000000000000000000000000000000000000beef' };
    const types = {
      Mail: [
        { name: 'to', type: 'address' },
        { name: 'contents', type: 'string' },
      ],
    };
    const value = { to: '0x000000000000000000000000000000000000dEaD', contents: 'hi' };
    const typedSignature = await signer.signTypedData(domain, types, value);
    expect(verifyTypedData(domain, types, value, typedSignature)).to.equal(await signer.getAddress());
  });

  it('exits non-zero with a one-line message for invalid flags', async () => {
    for (const args of [['--port', 'nope'], ['--hardfork', 'nope'], ['--accounts', '-3'], ['--coinbase', '0x12'], ['--unknown-flag']]) {
      const result = await runCli(args);
      expect(result.code, args.join(' ')).to.not.equal(0);
      expect(result.stderr.trim().split('\n'), `${args.join(' ')}: ${result.stderr}`).to.have.length(1);
      expect(result.stderr).to.match(/^chain-sim: /);
    }
  });

  it('-h is help, as everywhere else; -H is the host', async () => {
    for (const args of [['-h'], ['export', '-h']]) {
      const result = await runCli(args);
      expect(result.code, args.join(' ')).to.equal(0);
      expect(result.stdout, args.join(' ')).to.match(/--help/);
      expect(result.stderr).to.equal('');
    }
    expect((await runCli(['-h'])).stdout).to.match(/-H, --host/);
  });

  it('prints the real port for --port 0 and serves on it', async () => {
    expect(cli.url).to.match(/:\d+$/);
    expect(cli.url).to.not.match(/:0$/);
    expect(await provider.getBlockNumber()).to.be.a('number');
  });
});

describe('ethers BrowserProvider over the in-process provider', () => {
  it('deploys and calls a contract with no HTTP', async () => {
    const browser = new BrowserProvider(createProvider({ quiet: true }));
    const signer = await browser.getSigner(0);
    const { abi, bytecode } = artifact('Token');
    const token = (await new ContractFactory(abi, bytecode, signer).deploy('Token', 'TKN', 1000n)) as Contract;
    await token.waitForDeployment();
    expect(await token.getFunction('totalSupply')()).to.equal(1000n);
    expect(await token.getFunction('symbol')()).to.equal('TKN');
  });
});
