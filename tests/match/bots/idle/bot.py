# Never writes command.txt: every turn is a do-nothing ("" command).
