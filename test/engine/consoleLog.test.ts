import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { AbiCoder, getBytes, id } from 'ethers';
import { decodeAbiParameters } from 'viem';
import { type ConsoleType, decodeConsoleArguments } from '../../src/engine/execution/consoleAbi.js';
import { formatConsoleCall } from '../../src/engine/execution/consoleLog.js';
import { randomSource } from '../helpers/random.js';

const CONSOLE_SOL = new URL('../../../node_modules/hardhat/console.sol', import.meta.url);

/** A value of each console.sol type and how it prints. */
function sample(type: string): [unknown, string] {
  if (type === 'uint256') return [42n, '42'];
  if (type === 'int256') return [-42n, '-42'];
  if (type === 'string') return ['text', 'text'];
  if (type === 'bool') return [false, 'false'];
  if (type === 'address') return ['0x5fbdb2315678afecb367f032d93f642f64180aa3', '0x5FbDB2315678afecb367f032d93F642f64180aa3'];
  if (type === 'bytes') return ['0x0102', '0x0102'];
  const size = Number(type.slice('bytes'.length));
  const hex = `0x${'ab'.repeat(size)}`;
  return [hex, hex];
}

describe('engine/consoleLog', () => {
  it("decodes the payload of every function in Hardhat's console.sol", async () => {
    const signatures = [...readFileSync(CONSOLE_SOL, 'utf8').matchAll(/encodeWithSignature\("(log\(([^)]*)\))"/g)];
    expect(signatures.length).to.be.greaterThan(370);
    for (const [, signature, list] of signatures) {
      const types = list ? list!.split(',') : [];
      const samples = types.map(sample);
      const calldata = getBytes(
        id(signature!).slice(0, 10) +
          AbiCoder.defaultAbiCoder()
            .encode(
              types,
              samples.map(([value]) => value),
            )
            .slice(2),
      );
      expect(await formatConsoleCall(calldata), signature).to.equal(samples.map(([, shown]) => shown).join(' '));
    }
  });

  it("decodes the first console.sol's uint and int selectors as uint256 and int256", async () => {
    const encode = (signature: string, types: string[], values: unknown[]) =>
      getBytes(id(signature).slice(0, 10) + AbiCoder.defaultAbiCoder().encode(types, values).slice(2));
    expect(await formatConsoleCall(encode('log(uint)', ['uint256'], [7n]))).to.equal('7');
    expect(await formatConsoleCall(encode('log(string,uint)', ['string', 'uint256'], ['n =', 7n]))).to.equal('n = 7');
    expect(await formatConsoleCall(encode('log(int)', ['int256'], [-7n]))).to.equal('-7');
  });

  it('applies format specifiers in a first string argument, as Hardhat does with util.format', async () => {
    const calldata = getBytes(
      id('log(string,string,uint256)').slice(0, 10) + AbiCoder.defaultAbiCoder().encode(['string', 'string', 'uint256'], ['%s has %d', 'x', 5n]).slice(2),
    );
    expect(await formatConsoleCall(calldata)).to.equal('x has 5');
  });

  it('prints addresses checksummed by default, or in lowercase as Hardhat prints them', () => {
    const calldata = getBytes(
      id('log(string,address)').slice(0, 10) +
        AbiCoder.defaultAbiCoder().encode(['string', 'address'], ['to', '0x5fbdb2315678afecb367f032d93f642f64180aa3']).slice(2),
    );
    expect(formatConsoleCall(calldata)).to.equal('to 0x5FbDB2315678afecb367f032d93F642f64180aa3');
    expect(formatConsoleCall(calldata, 'lowercase')).to.equal('to 0x5fbdb2315678afecb367f032d93f642f64180aa3');
  });

  it('ignores calldata that is no console.sol payload', async () => {
    expect(await formatConsoleCall(new Uint8Array([1, 2]))).to.equal(undefined);
    expect(await formatConsoleCall(getBytes(id('transfer(address,uint256)').slice(0, 10)))).to.equal(undefined);
    // A known selector with arguments that do not decode.
    expect(await formatConsoleCall(getBytes(`${id('log(string)').slice(0, 10)}ff`))).to.equal(undefined);
  });

  it('decodes damaged payloads as viem does, or refuses them, and never throws', () => {
    const below = randomSource(1);
    const cases: [ConsoleType[], unknown[]][] = [
      [['string'], ['hello console']],
      [
        ['bytes', 'uint256'],
        ['0x0102030405', 7n],
      ],
      [
        ['uint256', 'string', 'bool', 'address'],
        [1n, 'x'.repeat(40), true, '0x5FbDB2315678afecb367f032d93F642f64180aa3'],
      ],
      [
        ['int256', 'bytes4'],
        [-5n, '0xdeadbeef'],
      ],
    ];
    let agreed = 0;
    for (const [types, values] of cases) {
      const valid = getBytes(AbiCoder.defaultAbiCoder().encode(types, values));
      for (let round = 0; round < 500; round++) {
        const damaged = valid.slice(0, below(3) === 0 ? below(valid.length + 1) : valid.length);
        for (let flips = below(3); flips > 0 && damaged.length > 0; flips--) damaged[below(damaged.length)] = below(256);
        const ours = decodeConsoleArguments(types, damaged);
        let theirs: readonly unknown[] | undefined;
        try {
          theirs = decodeAbiParameters(
            types.map((type) => ({ type })),
            `0x${Buffer.from(damaged).toString('hex')}`,
          );
        } catch {
          theirs = undefined;
        }
        // Where viem is more lenient, refusing is right: it reads any small non-zero bool word as
        // true (console.sol sends 0 or 1), and a static last argument from a truncated word.
        const lenient = theirs !== undefined && ours === undefined && (types.includes('bool') || damaged.length < types.length * 32);
        if (lenient) continue;
        const normal = (decoded: readonly unknown[] | undefined) => decoded?.map((value) => (typeof value === 'string' ? value.toLowerCase() : value));
        expect(normal(ours), `${types} ${Buffer.from(damaged).toString('hex')}`).to.deep.equal(normal(theirs));
        agreed++;
      }
    }
    expect(agreed).to.be.greaterThan(1500);
  });
});
