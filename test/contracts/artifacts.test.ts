import { expect } from 'chai';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createProvider } from '../../src/index.js';
import { startupRoots } from '../../src/contracts/artifactFiles.js';
import { ContractRegistry } from '../../src/contracts/registry.js';
import { compileProject, foundryProject, hardhat2Project, hardhat3Project, solcJsonFolder, tempDir } from '../helpers/artifacts.js';

/** The contracts every layout of test/contracts/project/ holds, under the source folder `dir`. */
const PROJECT_CONTRACTS = (dir: string, console = 'hardhat/console.sol') =>
  [
    `${dir}/Token.sol:IErrors`,
    `${dir}/Token.sol:Token`,
    `${dir}/SafeMath.sol:SafeMath`,
    `${dir}/SafeMath.sol:LinkedMath`,
    `${dir}/Vault.sol:Vault`,
    `${dir}/Vault.sol:Factory`,
    `${dir}/Vault.sol:Proxy`,
    `${console}:console`,
  ].sort();

type Loaded = { files: number; contracts: string[] };

async function load(source: string | object): Promise<Loaded> {
  const provider = createProvider({ quiet: true, artifacts: false });
  try {
    return (await provider.request({ method: 'chain_loadArtifacts', params: [source] })) as Loaded;
  } finally {
    await provider.disconnect();
  }
}

describe('artifacts: the compiler output chain-sim reads', function () {
  this.timeout(180_000);

  it("reads a Hardhat 2 project's artifacts/build-info (written by hardhat compile)", async () => {
    const project = await hardhat2Project();
    const loaded = await load(project);
    expect(loaded.files).to.equal(1);
    expect([...loaded.contracts].sort()).to.deep.equal(PROJECT_CONTRACTS('contracts'));
    // The artifacts folder, and the build-info folder itself, say the same.
    expect((await load(path.join(project, 'artifacts'))).contracts.sort()).to.deep.equal(PROJECT_CONTRACTS('contracts'));
    expect((await load(path.join(project, 'artifacts', 'build-info'))).contracts.sort()).to.deep.equal(PROJECT_CONTRACTS('contracts'));
  });

  it("reads Hardhat 3's build-info (input and output files), naming sources as the user does", async () => {
    const loaded = await load(hardhat3Project());
    expect(loaded.files).to.equal(1);
    expect([...loaded.contracts].sort()).to.deep.equal(PROJECT_CONTRACTS('contracts'));
  });

  it("reads a Foundry project's out/ (written by forge build)", async function () {
    const project = await foundryProject();
    if (!project) return this.skip();
    const loaded = await load(project);
    // forge names the remapped import by its path in the project.
    const expected = PROJECT_CONTRACTS('src', 'node_modules/hardhat/console.sol');
    expect([...loaded.contracts].sort()).to.deep.equal(expected);
    // out/ given directly: the same contracts.
    expect((await load(path.join(project, 'out'))).contracts.sort()).to.deep.equal(expected);
  });

  it("reads solc's standard JSON: a folder of files, one file, or the value itself", async () => {
    const folder = solcJsonFolder();
    expect((await load(folder)).contracts.sort()).to.deep.equal(PROJECT_CONTRACTS('contracts'));
    expect((await load(path.join(folder, 'compiled.json'))).contracts.sort()).to.deep.equal(PROJECT_CONTRACTS('contracts'));
    const { input, output } = compileProject();
    expect((await load({ input, output })).contracts.sort()).to.deep.equal(PROJECT_CONTRACTS('contracts'));
    expect((await load(output)).contracts.sort()).to.deep.equal(PROJECT_CONTRACTS('contracts'));
  });

  it('refuses what is not compiler output, naming the parameter', async () => {
    const provider = createProvider({ quiet: true, artifacts: false });
    const empty = tempDir('artifacts-empty');
    const refused = async (params: unknown[]) => {
      try {
        await provider.request({ method: 'chain_loadArtifacts', params });
      } catch (error) {
        return error as { code: number; message: string };
      }
      throw new Error('accepted');
    };
    try {
      expect(await refused(['/no/such/path'])).to.include({ code: -32602, message: 'invalid argument 0 (source): no such file or directory: /no/such/path' });
      expect((await refused([empty])).message).to.match(/^invalid argument 0 \(source\): .* holds no compiler output/);
      // JSON files that are not compiler output: refused too, and not kept.
      writeFileSync(path.join(empty, 'package.json'), '{"name": "not-artifacts"}');
      expect((await refused([empty])).message).to.match(/^invalid argument 0 \(source\): .* holds no compiler output/);
      expect((await refused([{ language: 'Solidity' }])).message).to.match(/^invalid argument 0 \(source\): the value holds no contracts/);
      expect((await refused([42])).message).to.equal('invalid argument 0 (source): expected a file or folder path, or compiler output as an object');
      expect((await refused([''])).message).to.equal('invalid argument 0 (source): expected a file or folder path, got an empty string');
      const damaged = path.join(tempDir('artifacts-damaged'), 'out.json');
      writeFileSync(damaged, '{"output": {"contracts": ');
      expect((await refused([damaged])).message).to.match(/^invalid argument 0 \(source\): .*out\.json: not valid JSON/);
    } finally {
      await provider.disconnect();
    }
  });

  it('refuses an --artifacts path that does not exist at start', async () => {
    const provider = createProvider({ quiet: true, artifacts: ['/no/such/artifacts'] });
    let message = '';
    await provider.ready().catch((error: Error) => (message = error.message));
    expect(message).to.equal('artifacts: no such file or directory: /no/such/artifacts');
  });

  it('reads nothing at start but the folder listings: a damaged build-info starts fine and is skipped, with a warning, when first needed', async () => {
    const project = tempDir('artifacts-lazy');
    const buildInfo = path.join(project, 'artifacts', 'build-info');
    mkdirSync(buildInfo, { recursive: true });
    writeFileSync(path.join(buildInfo, 'a.json'), 'not json at all');
    const provider = createProvider({ quiet: true, artifacts: [project] });
    await provider.ready(); // listed, not read: no error
    await provider.disconnect();
    const warnings: string[] = [];
    const registry = new ContractRegistry([project], (message) => warnings.push(message));
    expect(warnings).to.deep.equal([]);
    expect(registry.contracts()).to.deep.equal([]);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(/^artifacts: skipped .*a\.json: not valid JSON/);
  });

  it('finds the working directory’s Hardhat or Foundry project when --artifacts is not given, and none with --artifacts none', async () => {
    const project = await hardhat2Project();
    expect(startupRoots({ paths: [], detect: true }, project)).to.deep.equal([project]);
    const registry = new ContractRegistry(startupRoots({ paths: [], detect: true }, project));
    expect(
      registry
        .contracts()
        .map((c) => `${c.sourceName}:${c.name}`)
        .sort(),
    ).to.deep.equal(PROJECT_CONTRACTS('contracts'));
    expect(startupRoots({ paths: [], detect: false }, project)).to.deep.equal([]);
    // A folder that is neither: nothing to read, no work.
    const plain = tempDir('artifacts-plain');
    expect(startupRoots({ paths: [], detect: true }, plain)).to.deep.equal([]);
    expect(new ContractRegistry([]).active).to.equal(false);
  });

  it('reads a recompile: a changed build-info is read again when next needed', async () => {
    const project = tempDir('artifacts-recompile');
    const buildInfo = path.join(project, 'artifacts', 'build-info');
    mkdirSync(buildInfo, { recursive: true });
    writeFileSync(path.join(project, 'hardhat.config.js'), 'module.exports = {};\n');
    let clock = 0;
    const registry = new ContractRegistry(
      [project],
      () => {},
      () => clock,
    );
    expect(registry.contracts()).to.deep.equal([]);
    const { input, output } = compileProject();
    writeFileSync(path.join(buildInfo, 'b.json'), JSON.stringify({ _format: 'hh-sol-build-info-1', input, output }));
    clock += 999; // within a second of the last listing: not listed again
    expect(registry.contracts()).to.deep.equal([]);
    clock += 1;
    expect(registry.contracts().length).to.equal(PROJECT_CONTRACTS('contracts').length);
  });

  it('reads a build-info once per process: every chain’s registry over the same project shares it, until the file changes', () => {
    // A Hardhat 3 test suite opens a chain per test file (network.create()), each with a registry
    // over the same artifacts; OpenZeppelin Contracts' took longer to read again than to test.
    const project = tempDir('artifacts-shared');
    const buildInfo = path.join(project, 'artifacts', 'build-info');
    mkdirSync(buildInfo, { recursive: true });
    const { input, output } = compileProject();
    const file = path.join(buildInfo, 'c.json');
    writeFileSync(file, JSON.stringify({ _format: 'hh-sol-build-info-1', input, output }));
    const first = new ContractRegistry([project]).contracts();
    const second = new ContractRegistry([project]).contracts();
    expect(first.length).to.equal(PROJECT_CONTRACTS('contracts').length);
    // The very same objects: the file was not read and parsed again.
    expect(second).to.have.length(first.length);
    second.forEach((contract, i) => expect(contract).to.equal(first[i]));
    // A recompile (another size and time) is read again, by a new registry as by an old one.
    writeFileSync(file, JSON.stringify({ _format: 'hh-sol-build-info-1', input, output }, null, 1));
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const third = new ContractRegistry([project]).contracts();
    expect(third).to.have.length(first.length);
    expect(third[0]).to.not.equal(first[0]);
    expect(third[0]).to.deep.equal(first[0]);
  });
});
