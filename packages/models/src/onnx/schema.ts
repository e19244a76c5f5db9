import protobuf from "protobufjs";

/**
 * The subset of onnx.proto (IR v8) that winnow writes and reads, declared by
 * reflection with the spec's field numbers. Unknown fields are skipped on decode,
 * so models written by other tools still parse. Field names are camelCase for JS.
 * Repeated scalars outside TensorProto's *_data are unpacked, as in the proto2 spec;
 * parsers must accept either form anyway.
 */
const unpacked = { packed: false };

const descriptor = {
  nested: {
    onnx: {
      nested: {
        StringStringEntryProto: {
          fields: {
            key: { type: "string", id: 1 },
            value: { type: "string", id: 2 },
          },
        },
        OperatorSetIdProto: {
          fields: {
            domain: { type: "string", id: 1 },
            version: { type: "int64", id: 2 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: "repeated", type: "int64", id: 1, options: unpacked },
            dataType: { type: "int32", id: 2 },
            floatData: { rule: "repeated", type: "float", id: 4 },
            int32Data: { rule: "repeated", type: "int32", id: 5 },
            stringData: { rule: "repeated", type: "bytes", id: 6 },
            int64Data: { rule: "repeated", type: "int64", id: 7 },
            name: { type: "string", id: 8 },
            rawData: { type: "bytes", id: 9 },
            doubleData: { rule: "repeated", type: "double", id: 10 },
            docString: { type: "string", id: 12 },
          },
        },
        AttributeProto: {
          fields: {
            name: { type: "string", id: 1 },
            f: { type: "float", id: 2 },
            i: { type: "int64", id: 3 },
            s: { type: "bytes", id: 4 },
            t: { type: "TensorProto", id: 5 },
            g: { type: "GraphProto", id: 6 },
            floats: { rule: "repeated", type: "float", id: 7, options: unpacked },
            ints: { rule: "repeated", type: "int64", id: 8, options: unpacked },
            strings: { rule: "repeated", type: "bytes", id: 9 },
            tensors: { rule: "repeated", type: "TensorProto", id: 10 },
            graphs: { rule: "repeated", type: "GraphProto", id: 11 },
            docString: { type: "string", id: 13 },
            type: { type: "int32", id: 20 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: "repeated", type: "string", id: 1 },
            output: { rule: "repeated", type: "string", id: 2 },
            name: { type: "string", id: 3 },
            opType: { type: "string", id: 4 },
            attribute: { rule: "repeated", type: "AttributeProto", id: 5 },
            docString: { type: "string", id: 6 },
            domain: { type: "string", id: 7 },
          },
        },
        TensorShapeProto: {
          fields: {
            dim: { rule: "repeated", type: "Dimension", id: 1 },
          },
          nested: {
            Dimension: {
              oneofs: { value: { oneof: ["dimValue", "dimParam"] } },
              fields: {
                dimValue: { type: "int64", id: 1 },
                dimParam: { type: "string", id: 2 },
                denotation: { type: "string", id: 3 },
              },
            },
          },
        },
        TypeProto: {
          fields: {
            tensorType: { type: "Tensor", id: 1 },
            denotation: { type: "string", id: 6 },
          },
          nested: {
            Tensor: {
              fields: {
                elemType: { type: "int32", id: 1 },
                shape: { type: "TensorShapeProto", id: 2 },
              },
            },
          },
        },
        ValueInfoProto: {
          fields: {
            name: { type: "string", id: 1 },
            type: { type: "TypeProto", id: 2 },
            docString: { type: "string", id: 3 },
          },
        },
        GraphProto: {
          fields: {
            node: { rule: "repeated", type: "NodeProto", id: 1 },
            name: { type: "string", id: 2 },
            initializer: { rule: "repeated", type: "TensorProto", id: 5 },
            docString: { type: "string", id: 10 },
            input: { rule: "repeated", type: "ValueInfoProto", id: 11 },
            output: { rule: "repeated", type: "ValueInfoProto", id: 12 },
            valueInfo: { rule: "repeated", type: "ValueInfoProto", id: 13 },
          },
        },
        ModelProto: {
          fields: {
            irVersion: { type: "int64", id: 1 },
            producerName: { type: "string", id: 2 },
            producerVersion: { type: "string", id: 3 },
            domain: { type: "string", id: 4 },
            modelVersion: { type: "int64", id: 5 },
            docString: { type: "string", id: 6 },
            graph: { type: "GraphProto", id: 7 },
            opsetImport: { rule: "repeated", type: "OperatorSetIdProto", id: 8 },
            metadataProps: { rule: "repeated", type: "StringStringEntryProto", id: 14 },
          },
        },
        /**
         * ModelProto minus the graph, as metadata reads decoded it before metadata-props.ts
         * read the bytes without protobufjs: the reference that reader is tested against.
         */
        ModelHeader: {
          fields: {
            irVersion: { type: "int64", id: 1 },
            producerName: { type: "string", id: 2 },
            producerVersion: { type: "string", id: 3 },
            opsetImport: { rule: "repeated", type: "OperatorSetIdProto", id: 8 },
            metadataProps: { rule: "repeated", type: "StringStringEntryProto", id: 14 },
          },
        },
      },
    },
  },
};

const root = protobuf.Root.fromJSON(descriptor);

export const ModelProtoType: protobuf.Type = root.lookupType("onnx.ModelProto");
export const ModelHeaderType: protobuf.Type = root.lookupType("onnx.ModelHeader");
