"""Answers at once, then keeps running (and keeps a child running) until it is killed."""
import os
import time

with open("command.txt", "w") as handle:
    handle.write("1,2,0\n")
if os.fork() == 0:
    time.sleep(10**6)
time.sleep(10**6)
