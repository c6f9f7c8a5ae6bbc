module tinyllm

go 1.26
