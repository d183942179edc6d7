/** The start-up switches and Ganache's CLI spellings through the real `chain-sim` command. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { type RunningCli, runCli, startCli } from '../helpers/cli.js';
import { artifact } from '../helpers/chain.js';
import { postJson } from '../helpers/rpc.js';

async function rpcOver(
  url: string,
  method: string,
  params: unknown[] = [],
  headers: Record<string, string> = {},
): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> {
  const response = await postJson(url, { jsonrpc: '2.0', id: 1, method, params }, headers);
  return JSON.parse(response.body) as { result?: unknown; error?: { code: number; message: string } };
}

describe('start-up switches and Ganache spellings (CLI)', function () {
  this.timeout(60_000);
  let dir: string;
  let cli: RunningCli | undefined;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chain-sim-cli-switches-'));
  });
  afterEach(async () => {
    await cli?.stop();
    cli = undefined;
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("Ganache 7's spellings: --wallet.*, --chain.*, --miner.*, -d", async () => {
    const time = Date.UTC(2021, 0, 1);
    cli = await startCli([
      '--port',
      '0',
      '--wallet.totalAccounts',
      '2',
      '-d',
      '--wallet.defaultBalance',
      '5',
      '--chain.chainId',
      '5',
      '--chain.networkId',
      '9',
      '--chain.time',
      String(time),
      '--chain.vmErrorsOnRPCResponse',
      '--miner.blockGasLimit',
      '0x1c9c381',
      '--miner.defaultGasPrice',
      '3000000000',
      '--chain.allowUnlimitedContractSize',
      '--chain.hardfork',
      'shanghai',
      '--miner.instamine',
      'strict',
    ]);
    const { url } = cli;
    const accounts = (await rpcOver(url, 'eth_accounts')).result as string[];
    expect(accounts).to.deep.equal(['0x90f8bf6a479f320ead074411a4b0e7944ea8c9c1', '0xffcf8fdee72ac11b5c542428b35eef5769c409f0']);
    expect((await rpcOver(url, 'eth_getBalance', [accounts[0], 'latest'])).result).to.equal('0x4563918244f40000');
    expect((await rpcOver(url, 'eth_chainId')).result).to.equal('0x5');
    expect((await rpcOver(url, 'net_version')).result).to.equal('9');
    expect((await rpcOver(url, 'eth_gasPrice')).result).to.equal('0xb2d05e00');
    const genesis = (await rpcOver(url, 'eth_getBlockByNumber', ['0x0', false])).result as {
      timestamp: string;
      gasLimit: string;
      withdrawalsRoot?: string;
      blobGasUsed?: string;
    };
    expect(Number(genesis.timestamp)).to.equal(time / 1000);
    expect(genesis.gasLimit).to.equal('0x1c9c381');
    expect(genesis).to.have.property('withdrawalsRoot');
    expect(genesis).to.not.have.property('blobGasUsed');
    const failed = await rpcOver(url, 'eth_sendTransaction', [{ from: accounts[0], data: '0x60006000fd', gas: '0x100000' }]);
    expect(failed.error).to.deep.include({ code: -32000, message: 'VM Exception while processing transaction: revert' });
    // 24577 bytes of code deploy with the limit lifted.
    const big = await rpcOver(url, 'eth_sendTransaction', [{ from: accounts[0], data: '0x6160016000f3', gas: '0x1000000' }]);
    expect(((await rpcOver(url, 'eth_getTransactionReceipt', [big.result])).result as { status: string }).status).to.equal('0x1');
  });

  it("ganache-cli 6's short forms -a -e -m -i -l -g -k -t -u -v, and --wallet.mnemonic/accounts/unlockedAccounts, --miner.blockTime", async () => {
    const candy = 'candy maple cake sugar pudding cream honey rich smooth crumble sweet treat';
    const stranger = '0x00000000000000000000000000000000000000cc';
    const sendsUnsigned = async (url: string, to: string) => {
      await rpcOver(url, 'hardhat_setBalance', [stranger, '0xde0b6b3a7640000']);
      return (await rpcOver(url, 'eth_sendTransaction', [{ from: stranger, to }])).result;
    };
    cli = await startCli(
      ['-p', '0', '-a', '2', '-e', '5', '-m', candy, '-i', '9', '-l', '0x1c9c381', '-g', '3000000000', '-k', 'shanghai'].concat([
        '-t',
        '2021-01-01T00:00:00Z',
        '-u',
        stranger,
        '-v',
      ]),
    );
    const accounts = (await rpcOver(cli.url, 'eth_accounts')).result as string[];
    expect(accounts).to.deep.equal(['0x627306090abab3a6e1400e9345bc60c78a8bef57', '0xf17f52151ebef6c7334fad080c5704d77216b732']);
    expect((await rpcOver(cli.url, 'eth_getBalance', [accounts[0], 'latest'])).result).to.equal('0x4563918244f40000');
    expect((await rpcOver(cli.url, 'net_version')).result).to.equal('9');
    expect((await rpcOver(cli.url, 'eth_gasPrice')).result).to.equal('0xb2d05e00');
    const genesis = (await rpcOver(cli.url, 'eth_getBlockByNumber', ['0x0', false])).result as { gasLimit: string; timestamp: string };
    expect(genesis).to.include({ gasLimit: '0x1c9c381', timestamp: '0x5fee6600' });
    expect(genesis).to.not.have.property('blobGasUsed'); // shanghai
    expect(await sendsUnsigned(cli.url, accounts[0]!)).to.match(/^0x[0-9a-f]{64}$/);
    await cli.waitForOutput('eth_sendTransaction'); // -v logs requests
    await cli.stop();

    const key = `0x${'55'.repeat(32)}`;
    cli = await startCli(
      ['--port', '0', '--wallet.mnemonic', candy, '--wallet.totalAccounts', '1', '--wallet.accounts', `${key},1000`].concat([
        '--wallet.unlockedAccounts',
        stranger,
        '--miner.blockTime',
        '0.2',
      ]),
    );
    const mixed = (await rpcOver(cli.url, 'eth_accounts')).result as string[];
    expect(mixed).to.deep.equal(['0x627306090abab3a6e1400e9345bc60c78a8bef57', '0xe1fae9b4fab2f5726677ecfa912d96b0b683e6a9']);
    expect((await rpcOver(cli.url, 'eth_getBalance', [mixed[1], 'latest'])).result).to.equal('0x3e8');
    expect(await sendsUnsigned(cli.url, mixed[0]!)).to.match(/^0x[0-9a-f]{64}$/);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(Number((await rpcOver(cli.url, 'eth_blockNumber')).result)).to.be.within(2, 5);
  });

  it("Anvil's and Hardhat's spellings: --silent, --hostname, --allow-origin, --init, --retries, --timeout, --no-storage-caching", async () => {
    const genesis = fileURLToPath(new URL('../../../test/fixtures/genesis/schedule.json', import.meta.url));
    cli = await startCli(
      ['--port', '0', '--silent', '--hostname', '127.0.0.1', '--allow-origin', 'http://app.example', '--init', genesis].concat([
        '--retries',
        '1',
        '--timeout',
        '1000',
        '--no-storage-caching',
      ]),
    );
    expect(cli.output()).to.not.contain('Available accounts'); // --silent is --quiet
    expect((await rpcOver(cli.url, 'eth_chainId')).result).to.equal('0x1092'); // the genesis file's chain id (4242)
    const allowed = await postJson(cli.url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, { origin: 'http://app.example' });
    expect(allowed.headers['access-control-allow-origin']).to.equal('http://app.example');
    const other = await postJson(cli.url, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, { origin: 'http://localhost:3000' });
    expect(other.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it("--disable-default-create2-deployer (Anvil's spelling of --no-create2-deployer) leaves the deployer out", async () => {
    const deployer = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
    cli = await startCli(['--port', '0', '--quiet', '--disable-default-create2-deployer']);
    expect((await rpcOver(cli.url, 'eth_getCode', [deployer, 'latest'])).result).to.equal('0x');
    await cli.stop();
    cli = await startCli(['--port', '0', '--quiet']);
    expect((await rpcOver(cli.url, 'eth_getCode', [deployer, 'latest'])).result).to.match(/^0x7fff/);
  });

  it('--number: the genesis block has that number (Anvil)', async () => {
    cli = await startCli(['--port', '0', '--quiet', '--number', '42']);
    expect((await rpcOver(cli.url, 'eth_blockNumber')).result).to.equal('0x2a');
    const block = (await rpcOver(cli.url, 'eth_getBlockByNumber', ['earliest', false])).result as { number: string };
    expect(block.number).to.equal('0x2a');
  });

  it('--no-mining, --allow-same-timestamp, --account KEY,BALANCE, --unlock, --code-size-limit, --slots-in-an-epoch, --accounts-out, --database.dbPath', async () => {
    const out = join(dir, 'accounts.json');
    const state = join(dir, 'state.json');
    const key = `0x${'55'.repeat(32)}`;
    const stranger = '0x00000000000000000000000000000000000000cc';
    cli = await startCli([
      '--port',
      '0',
      '--no-mining',
      '--allow-same-timestamp',
      '--account',
      `${key},1000000000000000000`,
      '--unlock',
      stranger,
      '--code-size-limit',
      '40',
      '--slots-in-an-epoch',
      '1',
      '--accounts-out',
      out,
      '--database.dbPath',
      state,
      '--disable-min-priority-fee',
      '--transaction-gas-cap',
      '100000',
      '--timestamp',
      '1700000000',
    ]);
    const { url } = cli;
    const accounts = (await rpcOver(url, 'eth_accounts')).result as string[];
    expect(accounts).to.have.length(1);
    expect((await rpcOver(url, 'eth_getBalance', [accounts[0], 'latest'])).result).to.equal('0xde0b6b3a7640000');
    expect(JSON.parse(await readFile(out, 'utf8'))).to.deep.include({ available_accounts: accounts, private_keys: [key], chain_id: 1337 });
    const pending = (await rpcOver(url, 'eth_sendTransaction', [{ from: accounts[0], data: '0x60296000f3', gas: '0x100000' }])).result as string;
    expect((await rpcOver(url, 'eth_getTransactionReceipt', [pending])).result).to.equal(null);
    await rpcOver(url, 'evm_mine');
    await rpcOver(url, 'evm_mine');
    expect(((await rpcOver(url, 'eth_getTransactionReceipt', [pending])).result as { status: string }).status).to.equal('0x0'); // 41 bytes > 40
    expect(((await rpcOver(url, 'eth_getBlockByNumber', ['safe', false])).result as { number: string }).number).to.equal('0x1');
    expect(((await rpcOver(url, 'eth_getBlockByNumber', ['finalized', false])).result as { number: string }).number).to.equal('0x0');
    expect((await rpcOver(url, 'eth_maxPriorityFeePerGas')).result).to.equal('0x0');
    expect(Number((await rpcOver(url, 'eth_call', [{ data: '0x5a60005260206000f3' }])).result)).to.be.below(100_000);
    await rpcOver(url, 'hardhat_setBalance', [stranger, '0xde0b6b3a7640000']);
    const sent = await rpcOver(url, 'eth_sendTransaction', [{ from: stranger, to: accounts[0] }]);
    expect(sent.result).to.match(/^0x[0-9a-f]{64}$/);
    expect(await cli.stop()).to.equal(0);
    cli = undefined;
    // --database.dbPath is the state file: saved on exit.
    expect(JSON.parse(await readFile(state, 'utf8'))).to.be.an('object');
  });

  it('--mixed-mining with --mining-interval MIN,MAX, --auto-impersonate, --print-traces, --no-console-log', async () => {
    cli = await startCli(['--port', '0', '--mixed-mining', '--mining-interval', '100,150', '--auto-impersonate', '--print-traces', '--no-console-log']);
    const { url } = cli;
    const whale = '0x00000000000000000000000000000000000000ee';
    await rpcOver(url, 'hardhat_setBalance', [whale, '0xde0b6b3a7640000']);
    const hash = (await rpcOver(url, 'eth_sendTransaction', [{ from: whale, to: '0x00000000000000000000000000000000000000ff', value: '0x1' }]))
      .result as string;
    expect(((await rpcOver(url, 'eth_getTransactionReceipt', [hash])).result as { status: string }).status).to.equal('0x1');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(Number((await rpcOver(url, 'eth_blockNumber')).result)).to.be.within(4, 9);
    await cli.waitForOutput(`Traces for ${hash}:`);
  });

  it('--disable-block-gas-limit, --timestamp, --allow-same-timestamp, --disable-code-size-limit, --no-console-log', async () => {
    const blocks = async (url: string) => {
      for (let i = 0; i < 4; i++) await rpcOver(url, 'evm_mine');
      const stamps = new Set<string>();
      for (const n of [1, 2, 3, 4]) stamps.add(((await rpcOver(url, 'eth_getBlockByNumber', [`0x${n}`, false])).result as { timestamp: string }).timestamp);
      return stamps.size;
    };
    const consoleLogger = artifact('ConsoleLogger');
    const logView = async (url: string) => {
      const [from] = (await rpcOver(url, 'eth_accounts')).result as string[];
      const hash = (await rpcOver(url, 'eth_sendTransaction', [{ from, data: consoleLogger.bytecode, gas: '0x1000000' }])).result as string;
      const { contractAddress } = (await rpcOver(url, 'eth_getTransactionReceipt', [hash])).result as { contractAddress: string };
      await rpcOver(url, 'eth_call', [{ to: contractAddress, data: '0x2d52aa4e' }]); // logView(): console.log("view call, count", count)
      await rpcOver(url, 'eth_blockNumber'); // a later request: the console line is printed by then
    };
    cli = await startCli([
      '--port',
      '0',
      '--verbose',
      '--disable-block-gas-limit',
      '--timestamp',
      '1600000000',
      '--allow-same-timestamp',
      '--disable-code-size-limit',
      '--no-console-log',
    ]);
    const genesis = (await rpcOver(cli.url, 'eth_getBlockByNumber', ['0x0', false])).result as { gasLimit: string; timestamp: string };
    expect(genesis).to.include({ gasLimit: '0x7fffffffffffffff', timestamp: '0x5f5e1000' });
    // Four blocks mined at once share their second (two seconds at most if a second turns over).
    expect(await blocks(cli.url)).to.be.at.most(2);
    const [from] = (await rpcOver(cli.url, 'eth_accounts')).result as string[];
    const big = await rpcOver(cli.url, 'eth_sendTransaction', [{ from, data: '0x6160016000f3', gas: '0x1000000' }]); // 24577 bytes of code
    expect(((await rpcOver(cli.url, 'eth_getTransactionReceipt', [big.result])).result as { status: string }).status).to.equal('0x1');
    await logView(cli.url);
    expect(await cli.waitForOutput('eth_call')).to.not.contain('view call, count');
    await cli.stop();
    // Without the switches: the default gas limit, one second per block, the code limit, console lines printed.
    cli = await startCli(['--port', '0', '--verbose']);
    const plain = (await rpcOver(cli.url, 'eth_getBlockByNumber', ['0x0', false])).result as { gasLimit: string };
    expect(plain.gasLimit).to.equal('0x1c9c380');
    expect(await blocks(cli.url)).to.equal(4);
    // Mined and failed: the hash, and to Hardhat's HTTP provider Hardhat's error.
    const refused = await rpcOver(cli.url, 'eth_sendTransaction', [{ from, data: '0x6160016000f3', gas: '0x1000000' }]);
    expect(((await rpcOver(cli.url, 'eth_getTransactionReceipt', [refused.result])).result as { status: string }).status).to.equal('0x0');
    const toHardhat = await rpcOver(cli.url, 'eth_sendTransaction', [{ from, data: '0x6160016000f3', gas: '0x1000000' }], { 'user-agent': 'hardhat 2.29.1' });
    expect(toHardhat.error?.message).to.equal('Error: Transaction reverted: trying to deploy a contract whose code is too large');
    await logView(cli.url);
    await cli.waitForOutput('view call, count 0');
  });

  it('--json prints the start-up line and log lines as JSON; refusals name the flag', async () => {
    const json = await runCliUntilListening(['--port', '0', '--json', '--verbose', '--accounts', '1']);
    expect(json.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(json.accounts).to.deep.equal(['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266']);
    for (const [args, message] of [
      [['--fork', 'http://127.0.0.1:1'], /fork upstream http:\/\/127\.0\.0\.1:1/],
      [['--deterministic', '--mnemonic', 'test test test test test test test test test test test junk'], /deterministic: cannot be combined with --mnemonic/],
      [['--disable-block-gas-limit', '--gas-limit', '1000000'], /disable-block-gas-limit: cannot be combined with --gas-limit/],
      [['--mining-interval', '5,1'], /mining-interval: expected milliseconds/],
      [['--account', 'nothex'], /account: entry 0: expected a 32-byte hex private key/],
      [['--unlock', '0x12'], /unlock: expected a 20-byte 0x-prefixed address/],
    ] as const) {
      const result = await runCli([...args, '--port', '0']);
      expect(result.code, args.join(' ')).to.equal(1);
      expect(result.stderr).to.match(message);
    }
  });
});

/** Start the CLI in --json mode and read its first line (the start-up object), then stop it. */
async function runCliUntilListening(args: string[]): Promise<{ url: string; accounts: string[] }> {
  const { spawn } = await import('node:child_process');
  const { BIN, ROOT } = await import('../helpers/cli.js');
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let output = '';
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('\n')) resolve(output.split('\n')[0]!);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
    });
    const parsed = JSON.parse(line) as { url: string; accounts: string[]; message: string };
    expect(parsed.message).to.equal(`Listening on ${parsed.url}`);
    // A request is logged as a JSON line too.
    await rpcOver(parsed.url, 'eth_chainId');
    for (let i = 0; i < 50 && !output.includes('eth_chainId'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const logged = output.split('\n').find((l) => l.includes('eth_chainId'))!;
    expect(JSON.parse(logged).message).to.match(/^eth_chainId /);
    return parsed;
  } finally {
    child.kill('SIGTERM');
  }
}
