/** The corpus runner's own rules (compare.ts, corpus.ts), checked without the corpus. */
import { expect } from 'chai';
import { judge, redactErrorMessages } from './compare.js';
import { locateCorpus, parseCase } from './corpus.js';

describe('rpc-compat runner: judging answers as hive does', () => {
  it('a full match, numbers by value, passes; any other difference is reported with its path', () => {
    expect(judge('{"jsonrpc":"2.0","id":1,"result":"0x1"}', '{"id":1,"jsonrpc":"2.0","result":"0x1"}')).to.deep.equal([]);
    expect(judge('{"id":1.0,"result":[1,2]}', '{"id":1,"result":[1,2]}')).to.deep.equal([]);
    expect(judge('{"id":1,"result":{"a":"0x1","extra":1}}', '{"id":1,"result":{"a":"0x2"}}')).to.deep.equal([
      '$.result.a: -- "0x1" ++ "0x2"',
      '$.result.extra: -- 1 (not recorded)',
    ]);
    expect(judge('{"id":1,"result":[1]}', '{"id":1,"result":[1,2]}')).to.deep.equal(['$.result: -- 1 items ++ 2 items']);
  });

  it('error messages are left out only where both sides have an error object; codes and data count', () => {
    expect(judge('{"id":1,"error":{"code":-32000,"message":"mine"}}', '{"id":1,"error":{"code":-32000,"message":"geth"}}')).to.deep.equal([]);
    expect(judge('{"id":1,"error":{"code":-32602,"message":"x"}}', '{"id":1,"error":{"code":-32000,"message":"x"}}')).to.deep.equal([
      '$.error.code: -- -32602 ++ -32000',
    ]);
    // Nested, as eth_simulateV1's calls[].error.
    const answer = '{"result":[{"calls":[{"status":"0x0","error":{"code":3,"message":"a","data":"0x01"}}]}]}';
    expect(judge(answer, '{"result":[{"calls":[{"status":"0x0","error":{"code":3,"message":"b","data":"0x01"}}]}]}')).to.deep.equal([]);
    expect(judge(answer, '{"result":[{"calls":[{"status":"0x0","error":{"code":3,"message":"b","data":"0x02"}}]}]}')).to.have.length(1);
    // An error where a result was recorded is a difference, message and all.
    expect(judge('{"id":1,"error":{"code":-32601,"message":"no"}}', '{"id":1,"result":"0x1"}')).to.have.length(2);
    const { redacted } = redactErrorMessages({ error: { message: 'a', code: 1 } }, { error: { message: 'b', code: 1 } });
    expect(redacted).to.equal(true);
  });

  it('reads .io files as hive does: header comments, speconly, requests and answers', () => {
    const test = parseCase('eth_x/case', '// first\n// speconly: schema only\n>> {"id":1}\n<< {"id":1,"result":1}\n// later comment ignored\n');
    expect(test).to.deep.include({ path: 'eth_x/case', method: 'eth_x', comment: 'first\nspeconly: schema only\n', specOnly: true });
    expect(test.messages).to.deep.equal([
      { send: true, text: '{"id":1}' },
      { send: false, text: '{"id":1,"result":1}' },
    ]);
    expect(() => parseCase('eth_x/bad', 'junk line')).to.throw(/invalid test line/);
  });

  it('looks in CHAIN_SIM_RPC_COMPAT_DIR, then ../shared/execution-apis/tests, and says where it looked', () => {
    const location = locateCorpus({ CHAIN_SIM_RPC_COMPAT_DIR: '/nonexistent/tests' });
    expect(location.dir).to.equal(undefined);
    expect(location.looked[0]).to.equal('/nonexistent/tests (CHAIN_SIM_RPC_COMPAT_DIR)');
    expect(location.looked[1]).to.match(/\/shared\/execution-apis\/tests$/);
  });
});
