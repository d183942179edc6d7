// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Token} from "./Token.sol";
import {LinkedMath} from "./SafeMath.sol";
import "hardhat/console.sol";

/// Calls the token (an external call one level down) and a linked library.
contract Vault {
  Token public immutable token;
  uint256 public limit = 1000;

  event Withdrawn(address indexed to, uint256 amount);

  constructor(Token token_) {
    token = token_;
  }

  function withdraw(uint256 amount) external {
    console.log("withdraw %s", amount);
    token.transfer(msg.sender, LinkedMath.capped(amount, limit));
    emit Withdrawn(msg.sender, amount);
  }
}

/// A contract that deploys others (`new`): what it creates is identified too.
contract Factory {
  event Created(address token);

  function create(uint256 supply) external returns (Token token) {
    token = new Token(supply);
    emit Created(address(token));
  }

  /// EIP-1167: a minimal proxy to `implementation`.
  function clone(address implementation) external returns (address instance) {
    assembly {
      let ptr := mload(0x40)
      mstore(ptr, 0x3d602d80600a3d3981f3363d3d373d3d3d363d73000000000000000000000000)
      mstore(add(ptr, 0x14), shl(0x60, implementation))
      mstore(add(ptr, 0x28), 0x5af43d82803e903d91602b57fd5bf30000000000000000000000000000000000)
      instance := create(0, ptr, 0x37)
    }
    require(instance != address(0), "Factory: clone failed");
  }
}

/// An EIP-1967 proxy: the implementation's address in the standard slot, every call delegated to it.
contract Proxy {
  bytes32 private constant IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;

  constructor(address implementation) {
    assembly {
      sstore(IMPLEMENTATION_SLOT, implementation)
    }
  }

  fallback() external payable {
    assembly {
      let implementation := sload(IMPLEMENTATION_SLOT)
      calldatacopy(0, 0, calldatasize())
      let ok := delegatecall(gas(), implementation, 0, calldatasize(), 0, 0)
      returndatacopy(0, 0, returndatasize())
      switch ok
      case 0 { revert(0, returndatasize()) }
      default { return(0, returndatasize()) }
    }
  }
}
