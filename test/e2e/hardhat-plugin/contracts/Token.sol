// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/** A minimal ERC-20: enough for changeTokenBalance(s), emit().withArgs and custom errors with arguments. */
contract Token {
    error InsufficientBalance(address from, uint256 balance, uint256 needed);

    event Transfer(address indexed from, address indexed to, uint256 value);

    string public constant name = "Token";
    string public constant symbol = "TOK";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;

    constructor(uint256 supply) {
        balanceOf[msg.sender] = supply;
        totalSupply = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        uint256 balance = balanceOf[msg.sender];
        if (balance < value) revert InsufficientBalance(msg.sender, balance, value);
        balanceOf[msg.sender] = balance - value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}
