// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {SafeMath} from "./SafeMath.sol";
import "hardhat/console.sol";

interface IErrors {
  error Unauthorized(address caller);
}

/// A token with a custom error, events, an immutable and an internal call chain (chain-sim's artifacts tests).
contract Token is IErrors {
  error InsufficientBalance(uint256 available, uint256 required);

  event Transfer(address indexed from, address indexed to, uint256 value);

  mapping(address => uint256) public balanceOf;
  uint256 public immutable cap;
  address public immutable owner;

  constructor(uint256 supply) {
    require(supply <= 1e30, "Token: supply over the cap");
    console.log("minting %s", supply);
    cap = 1e30;
    owner = msg.sender;
    balanceOf[msg.sender] = supply;
    emit Transfer(address(0), msg.sender, supply);
  }

  function transfer(address to, uint256 amount) external returns (bool) {
    _transfer(msg.sender, to, amount);
    return true;
  }

  function mint(address to, uint256 amount) external {
    if (msg.sender != owner) revert Unauthorized(msg.sender);
    balanceOf[to] += amount;
    emit Transfer(address(0), to, amount);
  }

  function burn(uint256 amount) external {
    balanceOf[msg.sender] = SafeMath.sub(balanceOf[msg.sender], amount);
  }

  function overflow(uint256 x) external pure returns (uint256) {
    return x + type(uint256).max;
  }

  function divide(uint256 a, uint256 b) external pure returns (uint256) {
    return a / b;
  }

  function fail(string calldata why) external pure {
    revert(why);
  }

  function failEmpty() external pure {
    revert();
  }

  function _transfer(address from, address to, uint256 amount) internal {
    uint256 available = balanceOf[from];
    if (available < amount) revert InsufficientBalance(available, amount);
    balanceOf[from] = available - amount;
    balanceOf[to] += amount;
    emit Transfer(from, to, amount);
  }
}
