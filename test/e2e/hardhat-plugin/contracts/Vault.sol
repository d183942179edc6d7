// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import "hardhat/console.sol";

/** Holds ether until an unlock time: reverts of every kind the chai matchers tell apart, and console.log. */
contract Vault {
    error TooEarly(uint256 now_, uint256 unlockTime);

    event Deposited(address indexed from, uint256 amount);
    event Withdrawn(uint256 amount, uint256 when);

    address public immutable owner;
    uint256 public unlockTime;
    uint256[] private history;

    constructor(uint256 unlockTime_) payable {
        require(unlockTime_ > block.timestamp, "unlock time must be in the future");
        owner = msg.sender;
        unlockTime = unlockTime_;
    }

    receive() external payable {
        emit Deposited(msg.sender, msg.value);
    }

    function withdraw() external {
        if (block.timestamp < unlockTime) revert TooEarly(block.timestamp, unlockTime);
        require(msg.sender == owner, "not the owner");
        uint256 amount = address(this).balance;
        console.log("withdrawing %s wei to %s", amount, msg.sender);
        emit Withdrawn(amount, block.timestamp);
        payable(msg.sender).transfer(amount);
    }

    function split(address payable a, address payable b) external payable {
        a.transfer(msg.value / 2);
        b.transfer(msg.value - msg.value / 2);
    }

    function silent() external pure {
        revert();
    }

    function entry(uint256 i) external view returns (uint256) {
        return history[i];
    }

    function ratio(uint256 a, uint256 b) external pure returns (uint256) {
        return a / b;
    }
}
