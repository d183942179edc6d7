// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// Failing scenarios for Solidity stack traces: each entry point of Scenarios fails one way.
// test/contracts/stackTraces.test.ts runs each on Hardhat 2's own network and on chain-sim.

error Denied(address who, uint256 code);

library Checks {
  error TooBig(uint256 value);

  function atMost(uint256 value, uint256 limit) internal pure returns (uint256) {
    if (value > limit) revert TooBig(value);
    return value;
  }

  function positive(uint256 value) internal pure {
    require(value > 0, "Checks: not positive");
  }
}

library External {
  function half(uint256 value) external pure returns (uint256) {
    require(value % 2 == 0, "External: odd");
    return value / 2;
  }
}

contract Leaf {
  error LeafFailed(uint256 depth);

  function fail(uint256 depth) external pure returns (uint256) {
    revert LeafFailed(depth);
  }

  function failString() external pure {
    revert("leaf says no");
  }

  function nothing() external pure {}

  function view42() external pure returns (uint256) {
    return 42;
  }
}

contract Middle {
  Leaf public immutable leaf;

  constructor(Leaf leaf_) {
    leaf = leaf_;
  }

  function forward(uint256 depth) external view returns (uint256) {
    return leaf.fail(depth + 1);
  }
}

contract Reverting {
  constructor(uint256 value) {
    require(value != 0, "Reverting: zero");
    uint256[] memory values = new uint256[](1);
    values[value] = 1;
  }
}

contract NoReturn {
  function value() external pure {}
}

contract PayableFallbackless {
  fallback() external {}
}

contract Scenarios {
  address public owner = msg.sender;
  uint256[] private items;
  Leaf public leaf;
  Middle public middle;

  constructor() {
    leaf = new Leaf();
    middle = new Middle(leaf);
  }

  modifier onlyOwner() {
    if (msg.sender != owner) revert Denied(msg.sender, 7);
    _;
  }

  modifier positive(uint256 value) {
    require(value > 0, "positive: zero");
    _;
  }

  function requireString() external pure {
    require(false, "require failed");
  }

  function requireNoReason(uint256 x) external pure {
    require(x > 10);
  }

  function revertEmpty() external pure {
    revert();
  }

  function customError() external view {
    revert Denied(msg.sender, 1);
  }

  function overflow(uint256 x) external pure returns (uint256) {
    return x + type(uint256).max;
  }

  function divide(uint256 x) external pure returns (uint256) {
    return 10 / x;
  }

  function outOfBounds(uint256 i) external view returns (uint256) {
    return items[i];
  }

  function assertion() external pure {
    assert(false);
  }

  function internalChain(uint256 x) external pure returns (uint256) {
    return first(x);
  }

  function first(uint256 x) internal pure returns (uint256) {
    return second(x) + 1;
  }

  function second(uint256 x) internal pure returns (uint256) {
    return Checks.atMost(x, 5);
  }

  function libraryRequire() external pure {
    Checks.positive(0);
  }

  function externalLibrary(uint256 x) external pure returns (uint256) {
    return External.half(x);
  }

  function guarded() external onlyOwner {}

  function modified(uint256 value) external pure positive(value) returns (uint256) {
    return value;
  }

  function nested() external view returns (uint256) {
    return middle.forward(1);
  }

  function callLeafString() external view {
    leaf.failString();
  }

  function create(uint256 value) external returns (address) {
    return address(new Reverting(value));
  }

  function caught() external view returns (uint256) {
    try leaf.fail(0) returns (uint256 v) {
      return v;
    } catch {
      revert("caught and rethrown");
    }
  }

  function notContract() external view {
    Leaf(address(0x1234)).nothing();
  }

  function noReturnData(NoReturn target) external view returns (uint256) {
    return Leaf(address(target)).view42();
  }

  function invalidOpcode() external pure {
    assembly {
      invalid()
    }
  }

  function loop() external pure returns (uint256 n) {
    while (true) n++;
  }

  function nonPayable() external {}

  function throughProxy(Forwarder forwarder) external returns (uint256) {
    return Scenarios(payable(address(forwarder))).internalChain(7);
  }

  function missingReturnData(NoReturn target) external view returns (uint256) {
    return Returns(address(target)).value();
  }

  function callOutOfGas() external view returns (uint256) {
    return this.loop{gas: 50000}();
  }

  function deep(uint256 level) external view returns (uint256) {
    if (level == 0) return level1(level);
    return Scenarios(payable(address(this))).deep(level - 1) + 1;
  }

  function level1(uint256 x) internal view returns (uint256) {
    return level2(x);
  }

  function level2(uint256 x) internal view returns (uint256) {
    if (x == 0) revert Denied(address(this), x);
    return x;
  }

  fallback() external {
    revert("fallback says no");
  }
}

interface Returns {
  function value() external view returns (uint256);
}

/// Forwards every call with DELEGATECALL to the implementation it was built with.
contract Forwarder {
  address private immutable implementation;

  constructor(address implementation_) {
    implementation = implementation_;
  }

  fallback() external payable {
    address target = implementation;
    assembly {
      calldatacopy(0, 0, calldatasize())
      let ok := delegatecall(gas(), target, 0, calldatasize(), 0, 0)
      returndatacopy(0, 0, returndatasize())
      switch ok
      case 0 { revert(0, returndatasize()) }
      default { return(0, returndatasize()) }
    }
  }
}

contract NoFallback {
  function only() external pure {}
}

contract WithReceive {
  receive() external payable {
    revert("receive says no");
  }
}

interface IBeacon {
  function implementation() external view returns (address);
}

/// As OpenZeppelin's UpgradeableBeacon: the implementation its proxies delegate to.
contract UpgradeableBeacon is IBeacon {
  address private current;

  constructor(address implementation_) {
    current = implementation_;
  }

  function implementation() external view returns (address) {
    return current;
  }
}

/// As OpenZeppelin's BeaconProxy: the beacon in EIP-1967's beacon slot, each call delegated to its implementation().
contract BeaconProxy {
  bytes32 private constant BEACON_SLOT = 0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50;

  constructor(address beacon) {
    assembly {
      sstore(BEACON_SLOT, beacon)
    }
  }

  fallback() external payable {
    address beacon;
    assembly {
      beacon := sload(BEACON_SLOT)
    }
    address target = IBeacon(beacon).implementation();
    assembly {
      calldatacopy(0, 0, calldatasize())
      let ok := delegatecall(gas(), target, 0, calldatasize(), 0, 0)
      returndatacopy(0, 0, returndatasize())
      switch ok
      case 0 { revert(0, returndatasize()) }
      default { return(0, returndatasize()) }
    }
  }
}
